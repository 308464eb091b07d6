import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:8106';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1024, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
await page.goto(base + '/pricer/1/login');
await page.getByRole('button', { name: '登录' }).click();
await page.waitForURL(/dashboard/);
for (const width of [375, 768, 820, 900, 1024, 1280]) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(base + '/pricer/1/dashboard');
  await page.getByRole('table').first().waitFor();
  await page.waitForTimeout(1200);
  const info = await page.evaluate(() => ({
    docW: document.documentElement.scrollWidth,
    badges: [...document.querySelectorAll('[data-testid=order-status]')].map((b) => { const l = b.querySelector('.mantine-Badge-label') ?? b; return l.scrollWidth > l.clientWidth; }).filter(Boolean).length,
    ths: [...document.querySelectorAll('table thead th')].map((t) => t.textContent),
    cancel: [...document.querySelectorAll('button')].filter((b) => b.textContent === '撤单').map((b) => { const r = b.getBoundingClientRect(); return Math.round(r.right); }).slice(0, 2),
  }));
  console.log('desk', width, JSON.stringify(info));
  await page.screenshot({ path: `/tmp/i18-shots/desk-${width}.png`, fullPage: true });
  await page.goto(base + '/pricer/1/history');
  await page.getByRole('table').first().waitFor();
  await page.waitForTimeout(1200);
  const h = await page.evaluate(() => ({ docW: document.documentElement.scrollWidth, ths: [...document.querySelectorAll('table thead tr:first-child th')].map((t) => t.textContent.replace(/[↑↓↕]/g, '')) }));
  console.log('history', width, JSON.stringify(h));
  await page.screenshot({ path: `/tmp/i18-shots/history-${width}.png`, fullPage: true });
}
await browser.close();
