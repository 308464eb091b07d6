import { expect, test, type Page } from '@playwright/test';
import { newCustomerWithContract } from '../common/customers';
import { fixOneLot, fixUntilFilled, openDesk } from '../common/desk';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, toast } from './support';

/*
 * 点价协议 before the first fix (issue 43, docs/agreement.md), on a 375 px phone and a 1366 px laptop:
 * a new customer of the demo company is asked on login, and a fix is refused (请先签署点价协议) with the
 * link to the agreement; 同意并签署 stays disabled until the text is read to the end; the acceptance
 * shows its version, time, address and device; then the fix goes through and its confirmation names
 * the customer. The trader's page shows the customer's standing and records the signed paper.
 */

const TENANT = 1;

/** A new customer of the demo company with a copper contract (no margin: the agreement is what this suite is about). */
const newCustomer = (page: Page, width: number) =>
  newCustomerWithContract(page, {
    username: `xy${width}${Date.now() % 100_000}`,
    password: 'xy-pass-1',
    full_name: `协议测试客户${width}有限公司`,
  });

for (const width of [375, 1366]) {
  test(`at ${width} px: refused → read to the end → accept → fix → the confirmation names the customer`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, demoTrader, '/trader/agreement', /\/trader\/agreement$/);
    const { customer } = await newCustomer(page, width);
    const row = page
      .getByRole('table', { name: '客户签署情况' })
      .getByRole('row')
      .filter({ hasText: customer.username });
    await page.reload();
    await expect(row).toContainText('未签署，不能点价');

    const session = await pricerLogin(request, TENANT, customer.username, customer.password, { agreement: 'manual' });
    await page.setViewportSize({ width, height: width < 600 ? 812 : 900 });
    await openDesk(page, TENANT, session, { ...customer, company_name: '演示贸易有限公司' });

    // Asked on login; a fix anyway is refused, naming what to do, and nothing is fixed.
    const banner = page.getByTestId('agreement-banner');
    await expect(banner).toContainText('请先签署点价协议');
    await expect(banner).toContainText('阅读并同意《点价交易协议》（第 1 版）后，方可点价或下条件单。');
    const refused = await fixOneLot(page);
    expect(refused.status()).toBe(409);
    await expect(toast(page, '请先签署点价协议')).toBeVisible();
    await screenshot(page, testInfo, `agreement-refused-${width}`);

    // The link: the agreement, 同意 disabled until read to the end.
    await banner.getByRole('link', { name: '阅读点价协议' }).click();
    await expect(page).toHaveURL(new RegExp(`/pricer/${TENANT}/agreement$`));
    const accept = page.getByRole('button', { name: '同意并签署' });
    await expect(page.getByRole('heading', { name: '点价交易协议' })).toBeVisible();
    await expect(page.getByText('请阅读至协议末尾，“同意并签署”按钮随后可用')).toBeVisible();
    await expect(accept).toBeDisabled();
    await screenshot(page, testInfo, `agreement-unread-${width}`);
    await expectAccessible(page, testInfo, `agreement-${width}`);
    const text = page.getByRole('region', { name: '协议正文' });
    // Half way is not the end.
    await text.hover();
    await page.mouse.wheel(0, 200);
    await expect(accept).toBeDisabled();
    await text.getByText(/第九条 其他/).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 5000);
    await expect(page.getByText('已阅读至协议末尾')).toBeVisible();
    await expect(accept).toBeEnabled();
    await accept.click();

    const record = page.getByTestId('agreement-record');
    await expect(record).toContainText('已签署，可以点价');
    await expect(record).toContainText(/已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}（北京时间）同意第 1 版/);
    await expect(record).toContainText('地址 127.0.0.1');
    await expect(record).toContainText(/设备 电脑 · Chrome 浏览器/);
    await expect(accept).toBeHidden();
    // A printable copy: the whole text, without the buttons.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: '打印协议' })).toBeHidden();
    await expect(page.getByText('演示贸易有限公司 点价协议签署记录')).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await screenshot(page, testInfo, `agreement-accepted-${width}`);

    // Now the fix goes through (market orders until one fills: the simulated book may be empty a moment).
    await page.getByRole('link', { name: '返回交易台' }).click();
    await expect(page.getByTestId('agreement-banner')).toBeHidden();
    const orderId = await fixUntilFilled(page, request, session.token);
    await page.goto(`/pricer/${TENANT}/history`);
    await page.getByTestId(`confirmation-${orderId}`).first().click();
    const doc = page.getByTestId('confirmation');
    await expect(doc.locator('[data-field="客户"]')).toHaveText(customer.full_name);
    // 点价人: the customer's first login is its first 授权点价人, named by 客户全称 (docs/authorised-pricers.md).
    await expect(doc.locator('[data-field="点价人"]')).toHaveText(customer.full_name);
    await screenshot(page, testInfo, `agreement-confirmation-${width}`);

    // The trader's page: may fix now; the signed paper recorded against version 1.
    await page.setViewportSize({ width: width < 600 ? 375 : 1366, height: 900 });
    await page.goto('/trader/agreement');
    await expect(row).toContainText('已签署，可点价');
    await expect(row).toContainText(/第 1 版 · \d{4}-\d{2}-\d{2}/);
    await row.getByRole('button', { name: `登记签署：${customer.username}` }).click();
    const dialog = page.getByRole('dialog', { name: `登记 ${customer.full_name}（${customer.username}） 的签署记录` });
    await dialog.getByLabel('签署编号').fill(`HT-${width}-001`);
    await dialog.getByLabel('文件名（可选）').fill('点价协议-签章.pdf');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '已登记签署记录')).toBeVisible();
    await expect(row).toContainText(`第 1 版 · HT-${width}-001`);
    await screenshot(page, testInfo, `agreement-console-${width}`);

    // 发布新版本 says what it does to live orders and 条件单 before anything is published (cancelled here:
    // a required version would stop the other suites' customers).
    await page.getByRole('button', { name: '发布新版本' }).click();
    const publish = page.getByRole('dialog', { name: '发布点价协议新版本' });
    await expect(publish.getByLabel('协议标题')).toHaveValue('点价交易协议');
    await expect(publish).toContainText(
      '勾选后，客户同意新版本前不能再点价或新建条件单；已提交的点价指令和条件单不受影响。',
    );
    await screenshot(page, testInfo, `agreement-publish-${width}`);
    await publish.getByRole('button', { name: '取消' }).click();
    await expect(publish).toBeHidden();
  });
}
