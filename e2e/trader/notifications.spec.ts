import { expect, test, type Page } from '@playwright/test';
import { openDesk } from '../common/desk';
import { expectNoEnglish } from '../common/english';
import { demoTrader, pricerLogin, pricerSnapshot, screenshot, signIn, traderCall } from './support';

/*
 * Notifications (docs/notifications.md): an event — the trader pauses a customer's contract — reaches
 * the customer desk's bell and the trader console's bell; the list shows it newest first in Beijing
 * time; 标为已读 and 全部已读 bring the unread count down. On a phone the desk's bell stays in view.
 * The webhook settings page refuses a loopback robot address with the server's Chinese message.
 */

const TENANT = 1;

interface Inbox {
  items: { id: number; kind: string; title: string; text: string; created_at: string; read: boolean }[];
  unread_count: number;
}

const bell = (page: Page) => page.getByRole('button', { name: /^通知：/ });
const bellLabel = (unread: number) => (unread > 0 ? `通知：${unread} 条未读` : '通知：没有未读');
const beijing = (iso: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Shanghai',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
};

test.describe.serial('notifications', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a pause reaches the desk’s bell (phone too) and the console’s bell; mark read and mark all read', async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const pricer = await pricerLogin(request, TENANT, 'pricer1', 'pricer123');
    const snap = await pricerSnapshot(request, pricer);
    const contract = snap.contracts[0]!;
    const mine = async () =>
      (
        (await (
          await request.post('/api/pricer/view/notifications', {
            data: {},
            headers: { Authorization: `Bearer ${pricer.token}` },
          })
        ).json()) as { data: Inbox }
      ).data;

    await signIn(page, demoTrader);
    // Paused twice (and resumed): two notifications, so that one can be marked read and then all.
    for (const new_status of ['paused', 'active', 'paused', 'active'])
      await traderCall(page, '/api/trader/rpc/update-contract-status', { contract_id: contract.id, new_status });
    const inbox = await mine();
    const told = inbox.items[0]!;
    expect(told).toMatchObject({ kind: 'contract_paused', title: '合同已暂停点价', read: false });
    expect(inbox.unread_count).toBeGreaterThanOrEqual(2);

    // The customer desk, on a phone: the bell with the count in the header, in view.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
    });
    const desk = await phone.newPage();
    await openDesk(desk, TENANT, pricer, { username: 'pricer1', company_name: '演示贸易有限公司' });
    await expect(bell(desk)).toHaveAccessibleName(bellLabel(inbox.unread_count));
    await expect(bell(desk)).toBeInViewport();
    await expect(desk.getByTestId('notification-count')).toHaveText(String(inbox.unread_count));
    await bell(desk).click();
    const list = desk.getByRole('dialog', { name: '通知' });
    const item = list.getByRole('listitem').first();
    await expect(item).toContainText('合同已暂停点价');
    await expect(item).toContainText(told.text);
    await expect(item).toContainText(beijing(told.created_at));
    await expect(item).toBeInViewport({ ratio: 1 });
    await screenshot(desk, testInfo, 'notifications-desk-phone');
    await expectNoEnglish(desk, 'desk notifications');
    await item.getByRole('button', { name: '标为已读' }).click();
    await expect(list.getByTestId('notification-unread')).toHaveText(`${inbox.unread_count - 1} 条未读`);
    await list.getByRole('button', { name: '全部已读' }).click();
    await expect(list.getByTestId('notification-unread')).toHaveText('没有未读通知');
    await expect(item.getByRole('button', { name: '标为已读' })).toHaveCount(0);
    await list.getByRole('button', { name: '关闭' }).click();
    await expect(bell(desk)).toHaveAccessibleName('通知：没有未读');
    await expect(desk.getByTestId('notification-count')).toHaveCount(0);
    expect((await mine()).unread_count).toBe(0);
    await phone.close();

    // The trader console: the company's own notification of the same pause.
    const deskInbox = await traderCall<Inbox>(page, '/api/trader/view/notifications', {});
    expect(deskInbox.items[0]).toMatchObject({ kind: 'contract_paused', title: '合同已暂停点价' });
    await page.reload();
    await expect(bell(page)).toHaveAccessibleName(bellLabel(deskInbox.unread_count));
    await expect(bell(page)).toBeInViewport();
    await bell(page).click();
    const console = page.getByRole('dialog', { name: '通知' });
    await expect(console.getByRole('listitem').first()).toContainText(deskInbox.items[0]!.text);
    await expect(console.getByRole('listitem').first()).toBeInViewport({ ratio: 1 });
    await screenshot(page, testInfo, 'notifications-console');
    await expectNoEnglish(page, 'console notifications');
    await console.getByRole('button', { name: '全部已读' }).click();
    await expect(console.getByTestId('notification-unread')).toHaveText('没有未读通知');
    expect((await traderCall<Inbox>(page, '/api/trader/view/notifications', {})).unread_count).toBe(0);
  });

  test('the webhook settings page refuses a loopback address under the field', async ({ page }) => {
    await signIn(page, demoTrader);
    await page.getByRole('link', { name: '通知推送' }).click();
    await expect(page).toHaveURL(/\/trader\/notifications$/);
    await page.getByLabel('推送地址（群机器人地址）').fill('http://127.0.0.1:9/robot');
    await page.getByLabel('签名密钥').fill('s3cret');
    await page.getByRole('button', { name: '保存推送设置' }).click();
    await expect(page.getByText('推送地址不能指向内网、本机或链路本地地址')).toBeVisible();
    await expect(page.getByText('暂无推送记录')).toBeVisible();
    await expectNoEnglish(page, 'webhook settings');
  });
});
