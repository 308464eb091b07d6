import { tradingDayIn } from '../../test/days';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** A setup or check call; a 503 (shed) is sent again after its Retry-After (up to 10 times), as the apps do. */
export async function must(base: string, path: string, body: unknown, token?: string): Promise<any> {
  for (let i = 0; ; i++) {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status === 200) return (JSON.parse(text) as { data: unknown }).data;
    if (res.status !== 503 || i >= 10) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

export interface BenchCustomer {
  username: string;
  contract: number;
  /** The customer's desk token, after the real login. */
  token: string;
}

/**
 * A company set up through the API as a trader would: its profile on a simulated account, then `customers`
 * customers c0, c1, … each with a copper contract of 1,000,000 lots (buy, sell, buy, …; basis 0; deadline in 30
 * days), each signed in with pricer-login (the real argon2 check, 4 at a time) and the 点价协议 accepted.
 */
export async function seedCompany(
  base: string,
  token: string,
  opts: { name: string; customers: number; password: string },
): Promise<{ tenant: number; symbol: string; customers: BenchCustomer[] }> {
  const profile = await must(
    base,
    '/api/trader/rpc/trader-profile',
    { company_name: opts.name, tq_account_config: { is_sim: true } },
    token,
  );
  const tenant = profile.tenant_id as number;
  const symbol = (await must(base, '/api/trader/view/instruments', { product_name: '铜' }, token)).items[1]
    .symbol as string;
  const customers: BenchCustomer[] = [];
  for (let c = 0; c < opts.customers; c++) {
    const username = `c${c}`;
    const user = await must(base, '/api/trader/rpc/create-pricer-user', { username, password: opts.password }, token);
    const contract = await must(
      base,
      '/api/trader/rpc/create-contract',
      {
        pricer_id: user.id,
        product_name: '铜',
        instrument_id: symbol,
        direction: c % 2 ? 'SELL' : 'BUY',
        total_quantity: 1_000_000,
        basis: 0,
        fixing_deadline: tradingDayIn(30),
        // The benches measure fixing, not margin: a customer with no money on file fixes (docs/margin.md).
        margin_rate: 0,
      },
      token,
    );
    customers.push({ username, contract: contract.id, token: '' });
  }
  for (let i = 0; i < customers.length; i += 4)
    await Promise.all(
      customers.slice(i, i + 4).map(async (c) => {
        const r = await must(base, '/api/pricer/rpc/pricer-login', {
          tenant_id: tenant,
          username: c.username,
          password: opts.password,
        });
        c.token = r.jwt_token;
        // The desk's first step (docs/agreement.md): the customer reads and accepts the 点价协议.
        const { version } = await must(base, '/api/pricer/view/agreement', {}, c.token);
        await must(base, '/api/pricer/rpc/accept-agreement', { version }, c.token);
      }),
    );
  return { tenant, symbol, customers };
}
