/**
 * What one fix costs the live desk (issue 39 item 6, docs/live.md): the whole server on the embedded default with
 * its simulated market; a customer with 120 orders on another contract (a history the desk does not show) has the
 * desk open on a contract (`pricer_desk` with `contract_id`) and fixes 1 lot at the market. Counted from the submit
 * to the fill on the desk: the pushes, their bytes, and the HTTP reads the desk makes because of them (the desk
 * re-reads its orders, 条件单 and bell after a push that does not carry them: 3 per push).
 *
 *   npx tsx bench/deskPush.bench.ts [--fixes=10]
 */
import WebSocket from 'ws';
import { startServer } from '../test/server';
import { numberArg } from './lib/args';
import { must } from './lib/company';
import { footer, header } from './lib/stats';

const FIXES = numberArg('fixes', 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

header(`deskPush.bench: pushes, bytes and HTTP re-reads per fix on one desk (${FIXES} fixes)`);
const server = await startServer({ LOG_LEVEL: 'warn' });
try {
  const base = server.base;
  const login = await must(base, '/api/pricer/rpc/pricer-login', {
    tenant_id: 1,
    username: 'pricer1',
    password: 'pricer123',
  });
  const token = login.jwt_token as string;
  const snap = await must(base, '/api/pricer/view/my-data-snapshot', {}, token);
  const open = snap.contracts.filter((c: { remaining_quantity: number }) => c.remaining_quantity >= 200);
  const [desk, history] = [open[0], open[1] ?? open[0]];
  for (let i = 0; i < 120; i++)
    await must(base, '/api/pricer/rpc/submit-order', { contract_id: history.id, quantity: 1 }, token);
  await sleep(2000);

  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?token=${token}`);
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  const patches: { at: number; bytes: number; data: any }[] = [];
  let n = 0;
  const peek = () => ws.send(JSON.stringify({ aid: 'peek_message', req_id: `p${++n}` }));
  ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString());
    if (m.aid !== 'peek_message') return;
    peek();
    const data = m.data?.desk;
    if (data) patches.push({ at: Date.now(), bytes: JSON.stringify(data).length, data });
  });
  ws.send(
    JSON.stringify({
      aid: 'subscribe_view',
      req_id: 's',
      view_id: 'desk',
      view_name: 'pricer_desk',
      user_id: login.user_id ?? undefined,
      contract_id: desk.id,
    }),
  );
  peek();
  await sleep(1500);

  // What the desk reads after a push that does not carry its rows (apps/pricer live.ts before issue 39 item 6).
  const reads = [
    [
      '/api/pricer/view/my-orders',
      { contract_id: desk.id, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: 50 },
    ],
    [
      '/api/pricer/view/my-conditional-orders',
      { contract_id: desk.id, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: 50 },
    ],
    ['/api/pricer/view/notifications', { limit: 50 }],
  ] as const;
  let readBytes = 0;
  for (const [path, body] of reads) readBytes += JSON.stringify(await must(base, path, body, token)).length;

  let pushes = 0;
  let bytes = 0;
  let rereads = 0;
  for (let f = 0; f < FIXES; f++) {
    const from = patches.length;
    const order = await must(base, '/api/pricer/rpc/submit-order', { contract_id: desk.id, quantity: 1 }, token);
    const filled = (p: any) =>
      [...(p.orders?.items ?? []), ...(p.snapshot?.orders ?? [])].some(
        (o: any) => o.id === order.id && o.status === 'FINISHED',
      );
    for (const t0 = Date.now(); Date.now() - t0 < 10_000 && !patches.slice(from).some((p) => filled(p.data));)
      await sleep(20);
    await sleep(300); // a push still on its way after the fill
    const mine = patches.slice(from).filter((p) => p.data.version !== undefined);
    pushes += mine.length;
    bytes += mine.reduce((s, p) => s + p.bytes, 0);
    // A push with a snapshot but not the desk's rows: the desk reads its 3 lists again.
    rereads += mine.filter((p) => p.data.snapshot && !p.data.orders).length * reads.length;
  }
  ws.close();
  console.log(`  per fix: ${(pushes / FIXES).toFixed(1)} pushes, ${Math.round(bytes / FIXES)} bytes pushed`);
  console.log(
    `  per fix: ${(rereads / FIXES).toFixed(1)} HTTP re-reads (${Math.round(((rereads / reads.length) * readBytes) / FIXES)} bytes answered)`,
  );
  console.log(
    `  total per fix: ${Math.round((bytes + (rereads / reads.length) * readBytes) / FIXES)} bytes to the desk`,
  );
} finally {
  await server.stop();
}
footer();
