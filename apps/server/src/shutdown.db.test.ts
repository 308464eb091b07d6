import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, post, startServer, type RunningServer } from '../test/server';
import { tempDir } from '../test/tempDir';
import { openDatabase } from './platform/db/database';

/**
 * The whole server (src/main.ts) stopped with SIGTERM in the middle of a flow of requests: every
 * request that reached it is answered, the WebSocket server closes, and the process exits 0 within
 * 10 s (main.ts: close-with-grace → app.close() → Fastify's hooks in order).
 */
const dataDir = tempDir('pfp-shutdown-');
let server: RunningServer | undefined;
// Runs before the directory's removal (stacked after-hooks).
afterAll(async () => {
  server?.child.kill('SIGKILL');
  if (server) await exited(server.child);
});

interface Sent {
  kind: 'health' | 'snapshot' | 'submit' | 'slow body';
  startedAt: number;
  answeredAt?: number;
  /** The HTTP status, or the client's error (no answer). */
  status?: number;
  error?: string;
  orderId?: number;
}

describe('SIGTERM in the middle of traffic', () => {
  it(
    'answers every request it took, closes the WebSocket server and exits 0 within 10 s',
    { timeout: 180_000 },
    async () => {
      server = await startServer({ LOG_LEVEL: 'info', LOGIN_RATE_LIMIT: '1000' }, { dataDir });
      const { base, child } = server;
      const login = await post(base, '/api/pricer/rpc/pricer-login', {
        tenant_id: 1,
        username: 'pricer1',
        password: 'pricer123',
      });
      const token = login.body.data.jwt_token as string;
      const snap = (await post(base, '/api/pricer/view/my-data-snapshot', {}, token)).body.data;
      const contracts = snap.contracts as {
        id: number;
        instrument_id: string;
        direction: string;
        price_tick: number;
      }[];
      expect(contracts.length).toBeGreaterThan(0);

      // A WebSocket client on the public volatility view: closed by the server on the way out.
      const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/volatility`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const wsClosed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

      // Six clients, each sending one request after the other (kept-alive connections, as browsers and
      // proxies do): health, a database read, an order (a database write and the trading service).
      const sent: Sent[] = [];
      let stopSending = Infinity;
      let n = 0;
      const request = async (kind: Sent['kind']) => {
        const s: Sent = { kind, startedAt: performance.now() };
        sent.push(s);
        try {
          let res: Response;
          if (kind === 'health') res = await fetch(`${base}/api/health`);
          else {
            const c = contracts[n++ % contracts.length]!;
            const last = snap.market_data[c.instrument_id].last_price as number;
            // Resting 2% away from the market, inside the day's limit band.
            const price =
              Math.round((last * (1 + (c.direction === 'BUY' ? -0.02 : 0.02))) / c.price_tick) * c.price_tick;
            res = await fetch(
              `${base}/api/pricer/${kind === 'snapshot' ? 'view/my-data-snapshot' : 'rpc/submit-order'}`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                body: JSON.stringify(kind === 'snapshot' ? {} : { contract_id: c.id, quantity: 1, price }),
              },
            );
          }
          const body = (await res.json()) as { data?: { id?: number } };
          s.status = res.status;
          if (kind === 'submit' && res.status === 200) s.orderId = body.data?.id;
        } catch (err) {
          const e = err as Error & { cause?: { code?: string; message?: string } };
          s.error = `${e.message}: ${e.cause?.code ?? e.cause?.message ?? ''}`;
        }
        s.answeredAt = performance.now();
      };
      const kinds: Sent['kind'][] = ['health', 'snapshot', 'submit'];
      // Until 100 ms after SIGTERM and one request sent after it: on a loaded machine all six can still be waiting
      // for their answers 100 ms after it (CI, once), and none would have been sent after it.
      let signalledAt = Infinity;
      const sending = () => performance.now() < stopSending || !sent.some((s) => s.startedAt >= signalledAt);
      const clients = Array.from({ length: 6 }, async (_, i) => {
        for (let k = i; sending(); k++) await request(kinds[k % kinds.length]!);
      });

      // SIGTERM once the flow runs, at a moment with requests in hand; the clients go on for 100 ms more (above).
      const waitFor = async (ok: () => boolean) => {
        for (const t0 = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 2)))
          if (Date.now() - t0 > 60_000) throw new Error('the flow of requests did not start');
      };
      await waitFor(() => sent.filter((s) => s.status === 200).length >= 60);

      // One more client, quiet after its one request, which the server has in hand for sure: its headers
      // went before SIGTERM, its body comes after. Its connection stays in the client's keep-alive pool.
      const agent = new http.Agent({ keepAlive: true });
      const slow: Sent = { kind: 'slow body', startedAt: performance.now() };
      sent.push(slow);
      const slowReq = http.request(`${base}/api/pricer/view/my-data-snapshot`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': '2', authorization: `Bearer ${token}` },
      });
      const slowAnswer = new Promise<void>((resolve) => {
        slowReq.once('response', (res) => {
          res.resume();
          res.once('end', () => {
            slow.status = res.statusCode;
            slow.answeredAt = performance.now();
            resolve();
          });
        });
        slowReq.once('error', (err) => {
          slow.error = err.message;
          slow.answeredAt = performance.now();
          resolve();
        });
      });
      slowReq.flushHeaders();
      await new Promise((r) => setTimeout(r, 200));

      await waitFor(() => sent.filter((s) => s.answeredAt === undefined).length >= 3);
      const sigAt = performance.now();
      child.kill('SIGTERM');
      signalledAt = sigAt;
      stopSending = sigAt + 100;
      setTimeout(() => slowReq.end('{}'), 100);
      const exitCode = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
      await Promise.all([...clients, slowAnswer]);
      const code = await exitCode;
      agent.destroy();
      const exitMs = performance.now() - sigAt;

      const inHand = sent.filter((s) => s.startedAt < sigAt && s.answeredAt! > sigAt);
      const after = sent.filter((s) => s.startedAt >= sigAt);
      const statuses = sent.reduce<Record<string, number>>((m, s) => {
        const k = s.status ? String(s.status) : `no answer (${s.error})`;
        return { ...m, [k]: (m[k] ?? 0) + 1 };
      }, {});
      console.log(
        `SIGTERM after ${sent.length - inHand.length - after.length} answered requests, ${inHand.length} in hand, ` +
          `${after.length} sent after it; answers ${JSON.stringify(statuses)}; exit ${code} after ${Math.round(exitMs)} ms`,
      );
      // Every request was answered, and served (no 503): those in hand at SIGTERM and those sent after it.
      expect(sent.filter((s) => s.status !== 200)).toEqual([]);
      expect(inHand.length).toBeGreaterThanOrEqual(3);
      expect(after.length).toBeGreaterThan(0);
      expect(code).toBe(0);
      expect(exitMs).toBeLessThan(10_000);
      expect(await wsClosed).toBeGreaterThan(0); // closed by the server (terminated: 1006)
      expect(server.output()).toContain('shutting down');

      // What was acknowledged was kept: every order answered 200 is in the database.
      const ids = sent.flatMap((s) => (s.orderId ? [s.orderId] : []));
      expect(ids.length).toBeGreaterThan(0);
      const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'db') });
      try {
        const found = await db.selectFrom('orders').select('id').where('id', 'in', ids).execute();
        expect(found.length).toBe(ids.length);
      } finally {
        await db.destroy();
      }
    },
  );
});
