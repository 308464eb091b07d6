import type { APIRequestContext, Page } from '@playwright/test';

/*
 * The server's calls as the suites make them (SPEC §7): a trader call with the console's token, and the
 * customer's sign-in. trader/support.ts re-exports them for the trader suite.
 */

/** One call; the reply's data, or an error naming the call and the server's answer. */
export async function post<T>(request: APIRequestContext, url: string, body: unknown, token?: string): Promise<T> {
  const res = await request.post(url, {
    data: body,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const json = (await res.json()) as { result: string; data: T; error?: { message: string } };
  if (!res.ok() || json.result !== 'ok') throw new Error(`${url}: ${res.status()} ${JSON.stringify(json)}`);
  return json.data;
}

/** The signed-in trader's access token, from the oidc-client-ts user in sessionStorage. */
export async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i) ?? '';
      if (key.startsWith('oidc.user:'))
        return (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    }
    return undefined;
  });
  if (!token) throw new Error('not signed in');
  return token;
}

/** A trader API call with the page's token. */
export async function traderCall<T>(page: Page, url: string, body: unknown = {}): Promise<T> {
  return post<T>(page.request, url, body, await accessToken(page));
}

export interface PricerSession {
  token: string;
  userId: number;
}

/**
 * The customer desk's calls (SPEC §7 "Customer calls"), straight to the server. A new customer then
 * accepts the 点价协议 as the desk would (docs/agreement.md), so the suites fix at once; `agreement:
 * 'manual'` leaves it to the test (agreement.spec.ts).
 */
export async function pricerLogin(
  request: APIRequestContext,
  tenantId: number,
  username: string,
  password: string,
  opts: { agreement?: 'accept' | 'manual' } = {},
): Promise<PricerSession> {
  const data = await post<{ jwt_token: string; user_id: number }>(request, '/api/pricer/rpc/pricer-login', {
    tenant_id: tenantId,
    username,
    password,
  });
  const token = data.jwt_token;
  if (opts.agreement !== 'manual') {
    const agreement = await post<{ version: number; accepted: boolean }>(
      request,
      '/api/pricer/view/agreement',
      {},
      token,
    );
    if (!agreement.accepted)
      await post(request, '/api/pricer/rpc/accept-agreement', { version: agreement.version }, token);
  }
  return { token, userId: data.user_id };
}
