/**
 * How long a margin call takes to reach the customer's desk and the company's webhook (issue 41 item 3,
 * docs/margin.md "Margin calls"): the whole server on the embedded default with its simulated market and the
 * market-shift hook (SIM_MARKET_HOOKS=1); a company with one customer who fixed 1 lot of copper at 10 % margin with
 * ~5,000 元 to spare; the customer's desk open over /ws, no console open, a webhook receiver on loopback. Each round
 * shifts the market down 3 % (a margin call) and counts from the shift's answer to
 * - the first push that shows the desk the call (an account or snapshot with `margin_call`),
 * - the push of the bell with the call's notification (`margin_call`, written by the one writer),
 * - the webhook's POST of it;
 * then the market goes back up and the call's end is awaited the same way before the next round.
 *
 *   npx tsx bench/marginCall.bench.ts [--rounds=5] [--timeout=90]
 */
import { createServer } from 'node:http';
import WebSocket from 'ws';
import { AUDIENCE, startTestIssuer } from '../test/harness';
import { freePort, startServer, type RunningServer } from '../test/server';
import { tradingDayIn } from '../test/days';
import { numberArg } from './lib/args';
import { must } from './lib/company';
import { fmt, footer, header } from './lib/stats';

const ROUNDS = numberArg('rounds', 5);
const TIMEOUT_S = numberArg('timeout', 90);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

header(`marginCall.bench: market shift → margin call on the desk and at the webhook (${ROUNDS} rounds)`);
const idp = await startTestIssuer();
const hookPort = await freePort();
const hooks: { at: number; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    hooks.push({ at: performance.now(), body });
    res.end('{"errcode":0}');
  });
});
await new Promise<void>((r) => receiver.listen(hookPort, '127.0.0.1', r));
let server: RunningServer | undefined;
try {
  server = await startServer({
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: AUDIENCE,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    SIM_MARKET_HOOKS: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
  });
  const base = server.base;
  const trader = await idp.sign({}, { sub: 'margin-call-bench', exp: '2h' });
  const profile = await must(
    base,
    '/api/trader/rpc/trader-profile',
    { company_name: '追保时延公司', tq_account_config: { is_sim: true } },
    trader,
  );
  const symbol = (await must(base, '/api/trader/view/instruments', { product_name: '铜' }, trader)).items[1]
    .symbol as string;
  const user = await must(
    base,
    '/api/trader/rpc/create-pricer-user',
    { username: 'mc1', password: 'mc-pass-1' },
    trader,
  );
  const contract = await must(
    base,
    '/api/trader/rpc/create-contract',
    {
      pricer_id: user.id,
      product_name: '铜',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 100,
      basis: 0,
      fixing_deadline: tradingDayIn(20),
      margin_rate: 0.1,
    },
    trader,
  );
  await must(
    base,
    '/api/trader/rpc/set-webhook',
    { url: `http://127.0.0.1:${hookPort}/hook`, secret: 'bench-secret' },
    trader,
  );
  const login = await must(base, '/api/pricer/rpc/pricer-login', {
    tenant_id: profile.tenant_id,
    username: 'mc1',
    password: 'mc-pass-1',
  });
  const token = login.jwt_token as string;
  const last = async () =>
    Number((await must(base, '/api/pricer/view/my-data-snapshot', {}, token)).market_data[symbol].last_price);
  // 1 lot at the market: margin ≈ price × 5 × 10 %; deposit that and 1.25 % of the lot's value more.
  const price = await last();
  await must(
    base,
    '/api/trader/rpc/record-funds',
    { pricer_id: user.id, kind: 'deposit', amount: Math.round(price * 5 * 0.1125) },
    trader,
  );
  for (let i = 0; i < 10; i++) {
    await must(base, '/api/pricer/rpc/submit-order', { contract_id: contract.id, quantity: 1 }, token);
    await sleep(1500);
    const snap = await must(base, '/api/pricer/view/my-data-snapshot', {}, token);
    if (snap.contracts.find((c: { id: number }) => c.id === contract.id).executed_quantity >= 1) break;
  }

  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?token=${token}`);
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  const patches: { at: number; data: any }[] = [];
  let n = 0;
  const peek = () => ws.send(JSON.stringify({ aid: 'peek_message', req_id: `p${++n}` }));
  ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString());
    if (m.aid !== 'peek_message') return;
    peek();
    if (m.data?.desk) patches.push({ at: performance.now(), data: m.data.desk });
  });
  ws.send(
    JSON.stringify({ aid: 'subscribe_view', req_id: 's', view_id: 'desk', view_name: 'pricer_desk', user_id: user.id }),
  );
  peek();
  await sleep(2000);

  const accountOf = (p: any) => p.account ?? p.snapshot?.account;
  const bellHas = (p: any, kind: string, after: number) =>
    (p.notifications?.items ?? []).some((i: any) => i.kind === kind && i.id > after);
  let lastBell = 0;
  const bellMax = () => {
    for (const p of patches)
      for (const i of p.data.notifications?.items ?? []) lastBell = Math.max(lastBell, i.id as number);
    return lastBell;
  };
  const rows: { shown: number; bell: number; hook: number }[] = [];
  const wait = async (from: number, hookFrom: number, call: boolean, t0: number) => {
    const kind = call ? 'margin_call' : 'margin_call_end';
    const after = bellMax();
    let shown = NaN;
    let bell = NaN;
    let hook = NaN;
    for (const stop = t0 + TIMEOUT_S * 1000; performance.now() < stop; await sleep(10)) {
      for (const p of patches.slice(from)) {
        const a = accountOf(p.data);
        if (Number.isNaN(shown) && a && a.margin_call === call) shown = p.at - t0;
        if (Number.isNaN(bell) && bellHas(p.data, kind, after)) bell = p.at - t0;
      }
      const h = hooks.slice(hookFrom).find((x) => x.body.includes(call ? '追加保证金' : '追保已解除'));
      if (Number.isNaN(hook) && h) hook = h.at - t0;
      if (!Number.isNaN(shown) && !Number.isNaN(bell) && !Number.isNaN(hook)) break;
    }
    return { shown, bell, hook };
  };
  for (let r = 0; r < ROUNDS; r++) {
    let from = patches.length;
    let hookFrom = hooks.length;
    let t0 = performance.now();
    await must(base, '/api/test/market-shift', { symbol, percent: -3 });
    const row = await wait(from, hookFrom, true, t0);
    rows.push(row);
    console.log(
      `  round ${r + 1}: desk shows the call ${fmt(row.shown)} ms, bell ${fmt(row.bell)} ms, webhook ${fmt(row.hook)} ms`,
    );
    from = patches.length;
    hookFrom = hooks.length;
    t0 = performance.now();
    await must(base, '/api/test/market-shift', { symbol, percent: (1 / 0.97 - 1) * 100 });
    const end = await wait(from, hookFrom, false, t0);
    console.log(
      `           the call's end: desk ${fmt(end.shown)} ms, bell ${fmt(end.bell)} ms, webhook ${fmt(end.hook)} ms`,
    );
    await sleep(1000 + Math.random() * 2000);
  }
  ws.close();
  const med = (k: 'shown' | 'bell' | 'hook') => {
    const v = rows.map((x) => x[k]).sort((a, b) => a - b);
    return `median ${fmt(v[Math.floor(v.length / 2)] ?? NaN)} ms, max ${fmt(v[v.length - 1] ?? NaN)} ms`;
  };
  console.log(`  the desk shows the call: ${med('shown')}`);
  console.log(`  the bell has it:         ${med('bell')}`);
  console.log(`  the webhook has it:      ${med('hook')}`);
} finally {
  await server?.stop();
  receiver.close();
  await idp.close();
}
footer();
