import { expect, request as http, test } from '@playwright/test';
import { expectNoEnglish } from '../common/english';
import { demoTrader, signIn } from './support';

/** A customer on a phone, in WeChat's own browser (issue 30: "who pressed 点价 from where"). */
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

/** Systems and browsers are named by their brands, as Chinese users know them (iOS, Windows, Chrome …). */
const BRANDS = /^(iOS|iPadOS|macOS|Windows|Android|Linux|ChromeOS|Chrome|Safari|Edge|Firefox|Opera|QQ|UC|IE)$/;

/** The raw user-agents are evidence kept in the tooltip (title): their words are data, not UI words. */
const uaWords = (...uas: string[]) => [...new Set(uas.flatMap((ua) => ua.match(/[A-Za-z][A-Za-z0-9_.@-]*/g) ?? []))];

test.describe('audit log page scan (issue 30)', () => {
  // A compliance desk's wide screen: 地址 and 浏览器 are the columns a narrow table leaves out first.
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('actions, times and browsers read in Chinese: no ASCII action key, no ISO time, the browser described', async ({
    page,
    baseURL,
  }) => {
    // The customer signs in from WeChat on an iPhone, after one wrong password: two audited rows.
    const phone = await http.newContext({ baseURL, userAgent: WECHAT_UA });
    const wrong = await phone.post('/api/pricer/rpc/pricer-login', {
      data: { tenant_id: 1, username: 'pricer2', password: 'not-the-password' },
    });
    expect(wrong.status()).toBe(401);
    const right = await phone.post('/api/pricer/rpc/pricer-login', {
      data: { tenant_id: 1, username: 'pricer2', password: 'pricer123' },
    });
    expect(right.status()).toBe(200);
    await phone.dispose();

    await signIn(page, demoTrader, '/trader/audit', /\/trader\/audit$/);
    const table = page.getByRole('table', { name: '操作记录' });
    const phoneRows = table
      .getByRole('row')
      .filter({ hasText: '江南饲料科技有限公司' })
      .filter({ hasText: '手机 · 微信 · iOS' });
    await expect(phoneRows.first()).toBeVisible();
    // The browser column reads in Chinese, the raw user-agent on hover.
    const cell = phoneRows.first().getByText('手机 · 微信 · iOS', { exact: true });
    await expect(cell).toBeInViewport();
    await expect(cell).toHaveAttribute('title', `浏览器标识：${WECHAT_UA}`);
    await expect(table.getByText(WECHAT_UA, { exact: true })).toHaveCount(0);

    const text = await table.innerText();
    // No action key (submit-order, pricer-login-failed …) and no ISO timestamp anywhere in the table.
    expect(text.match(/\b[a-z]+(?:-[a-z]+)+\b/g) ?? []).toEqual([]);
    expect(text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g) ?? []).toEqual([]);
    expect(text).toContain('客户登录失败');
    // And nothing else in Latin letters but data: user names, addresses and the raw user-agents in tooltips.
    const own = await page.evaluate(() => navigator.userAgent);
    // The suite's customers accept the 点价协议 through Playwright's API client (docs/agreement.md; 'CI/1' under CI): its
    // user agent is raw data in those rows' tooltips too.
    const api = ['Playwright', 'debian', 'node', 'CI'];
    await expectNoEnglish(page, 'audit log', [demoTrader.username, BRANDS, ...uaWords(WECHAT_UA, own), ...api]);
  });
});
