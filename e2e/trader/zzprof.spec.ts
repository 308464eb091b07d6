import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { demoTrader, signIn } from './support';

test('profile boot', async ({ browser }) => {
  const warm = await browser.newContext(); await signIn(await warm.newPage(), demoTrader, '/trader/contracts', /contracts$/); await warm.close();
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
  await expect(page.getByTestId('page-title')).toHaveText('合同管理');
  await expect(page.getByRole('table', { name: '合同列表' })).toBeVisible();
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/boot.cpuprofile', JSON.stringify(profile));
  await context.close();
});
