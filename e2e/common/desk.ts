import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { PricerSession } from './api';
import { storeOnNextLoad } from './storage';

/** The customer desk's submit call (its answer is what a fix test reads). */
export const SUBMIT = '/api/pricer/rpc/submit-order';

/**
 * The desk's sign-in as the login page leaves it: the session's token and user in local storage, then
 * the desk's 交易台 (or `path`).
 */
export async function openDesk(
  page: Page,
  tenantId: number,
  session: PricerSession,
  user: { username: string; company_name?: string },
  path = 'dashboard',
) {
  const me = {
    user_id: session.userId,
    username: user.username,
    tenant_id: tenantId,
    company_name: user.company_name ?? '',
  };
  await openDeskSignedIn(page, session.token, me, `/pricer/${tenantId}/${path}`);
}

/**
 * Opens `path` with a desk session where its login page leaves one (local storage), written before the desk's first
 * script runs (common/storage.ts): one load of the desk, where opening the login page to write it took two.
 */
export async function openDeskSignedIn(page: Page, token: string, user: object, path: string) {
  await storeOnNextLoad(page, 'local', { pricer_token: token, pricer_user_info: JSON.stringify(user) });
  await page.goto(path);
}

/**
 * Signs in on the desk's login page as a person types it, and waits for the desk. The e2e servers run the demo, so
 * the form of its company (code 1) is prefilled with the demo customer once GET /api/config answers: a fill racing
 * that answer could end as `pricer1` + the username (the prefill landing between Playwright's select and its typing).
 */
export async function signInOnDeskForm(page: Page, tenantId: number, username: string, password: string) {
  await page.goto(`/pricer/${tenantId}/login`);
  if (tenantId === 1) await expect(page.getByLabel('用户名')).toHaveValue('pricer1');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel(/^密码/).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(new RegExp(`/pricer/${tenantId}/dashboard$`));
}

/** Presses 点价 → 市价 1 手 → 提交订单 → 确认点价; answers the server's reply. */
export async function fixOneLot(page: Page) {
  if (!(await page.getByRole('button', { name: '收起' }).isVisible()))
    await page.getByRole('button', { name: '点价', exact: true }).click();
  await page.getByLabel('成交数量（手）').fill('1');
  await page.getByRole('radiogroup', { name: '订单类型' }).getByText('市价', { exact: true }).click();
  await page.getByRole('button', { name: '提交订单' }).click();
  const answer = page.waitForResponse(`**${SUBMIT}`);
  await page.getByRole('dialog', { name: '确认点价' }).getByRole('button', { name: '确认点价' }).click();
  return answer;
}

/** Waits until the order is done (filled or cancelled by the simulated broker); whether any lot filled. */
export async function orderFilled(request: APIRequestContext, token: string, id: number) {
  let lots = 0;
  await expect
    .poll(
      async () => {
        const res = await request.post('/api/pricer/view/my-orders', {
          data: { filter: `id = ${id}` },
          headers: { Authorization: `Bearer ${token}` },
        });
        const o = ((await res.json()) as { data: { items: { status: string; volume_traded: string }[] } }).data
          .items[0]!;
        lots = Number(o.volume_traded);
        return o.status === 'FINISHED' || o.status === 'CANCELLED';
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return lots > 0;
}

/** Market orders of 1 lot on the open desk until one fills (the simulated book may be empty a moment); its id. */
export async function fixUntilFilled(page: Page, request: APIRequestContext, token: string): Promise<number> {
  let orderId = 0;
  for (let attempt = 0; attempt < 5 && orderId === 0; attempt++) {
    const res = await fixOneLot(page);
    expect(res.status()).toBe(200);
    const { data } = (await res.json()) as { data: { id: number } };
    if (await orderFilled(request, token, data.id)) orderId = data.id;
  }
  expect(orderId).toBeGreaterThan(0);
  return orderId;
}
