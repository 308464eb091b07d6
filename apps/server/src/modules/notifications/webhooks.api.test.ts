import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { killSwitch, waitFor } from '../../../test/trading/testSupport';
import { silentLogger } from '../../platform/logger';
import { notify, notifyMany } from './notify';
import { checkTarget, isPrivateAddress, webhookWorker } from './webhooks';

/*
 * The webhook outbox (issue 33, docs/notifications.md) against a real receiver on loopback
 * (WEBHOOK_ALLOW_PRIVATE=1): signed deliveries, retries with backoff, exactly once after a 2xx, two
 * workers never sending one row twice, and the one at-least-once window (a crash between the send
 * and its mark).
 */

interface Received {
  delivery: string | undefined;
  body: string;
  signature: string | undefined;
  content: string;
}

let h: Harness;
let a: Tenant;
let b: Tenant;
let server: http.Server;
let url: string;
let received: Received[];
/** What the receiver answers next (then 200): a status, or 'hang' (never answers). */
let script: (number | 'hang')[];
const SECRET = '群机器人密钥';

const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body, 'utf8').digest('hex')}`;

async function event(t: Tenant, n: number) {
  await h.db.transaction().execute((tx) =>
    notify(tx, {
      tenantId: t.tenantId,
      kind: 'fill',
      desk: { title: `客户 alice 点价成交 ${n}`, body: `成交 ${n} 手` },
      ref: `test:${t.tenantId}:${n}:${Math.random()}`,
    }),
  );
}
const deliveries = async (t: Tenant) =>
  (await h.call('/api/trader/view/webhook-deliveries', {}, t.token)).body.data.items as {
    id: number;
    title: string;
    status: string;
    status_str: string;
    attempts: number;
    last_status: number | null;
    last_error: string;
  }[];
const worker = (extra: Partial<Parameters<typeof webhookWorker>[0]> = {}) =>
  webhookWorker({
    db: h.db,
    secrets: h.ctx.secrets,
    everyMs: 3_600_000,
    backoffBaseMs: 1,
    allowPrivate: true,
    ...extra,
  });

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'trader-hook-a', '甲贸易', ['alice']);
  b = await setupTenant(h, 'trader-hook-b', '乙贸易', []);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = script.shift() ?? 200;
      if (next === 'hang') return; // a receiver that never answers
      const body = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers['x-pfp-signature'];
      const delivery = req.headers['x-pfp-delivery'];
      received.push({
        delivery: typeof delivery === 'string' ? delivery : undefined,
        body,
        signature: typeof sig === 'string' ? sig : undefined,
        content: JSON.parse(body).text.content,
      });
      res.writeHead(next).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/robot/send?key=k`;
});
beforeEach(async () => {
  received = [];
  script = [];
  await h.db.deleteFrom('webhook_deliveries').execute();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await h.close();
});

describe('set-webhook', () => {
  it('refuses private, loopback and link-local targets unless WEBHOOK_ALLOW_PRIVATE=1, and bad input', async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    for (const [body, field, message] of [
      [{ url, secret: SECRET }, 'url', '推送地址不能指向内网、本机或链路本地地址'],
      [{ url: 'http://169.254.169.254/latest', secret: SECRET }, 'url', '推送地址不能指向内网、本机或链路本地地址'],
      [{ url: 'http://[::1]:8080/', secret: SECRET }, 'url', '推送地址不能指向内网、本机或链路本地地址'],
      [
        { url: 'ftp://example.com/x', secret: SECRET },
        'url',
        '推送地址必须是完整的网址，例如 https://open.feishu.cn/open-apis/bot/v2/hook/…',
      ],
      [{ url: 'https://example.com/x', secret: SECRET, kinds: ['nope'] }, 'kinds[0]', '推送事件类型无效'],
      [{ url: 42 }, 'url', '推送地址必须是文本'],
    ] as const) {
      const res = await h.call('/api/trader/rpc/set-webhook', body, a.token);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ field, message });
    }
    await expect(checkTarget('http://localhost:9/', false)).rejects.toThrow('推送地址不能指向内网');
    expect(
      [
        '10.1.2.3',
        '172.20.0.1',
        '192.168.1.1',
        '100.64.0.1',
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        'fe80::1',
        'fd00::1',
      ].filter((x) => !isPrivateAddress(x)),
    ).toEqual([]);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    expect((await h.call('/api/trader/view/webhook', {}, a.token)).body.data).toMatchObject({
      url: '',
      has_secret: false,
    });

    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const noSecret = await h.call('/api/trader/rpc/set-webhook', { url }, a.token);
    expect(noSecret.body.error).toMatchObject({ field: 'secret', message: '请填写签名密钥' });
    const ok = await h.call(
      '/api/trader/rpc/set-webhook',
      { url, secret: SECRET, kinds: ['fill', 'contract_paused'] },
      a.token,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ url, kinds: ['fill', 'contract_paused'], has_secret: true });
    expect(JSON.stringify(ok.body)).not.toContain(SECRET);
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
  });
});

describe('the outbox', () => {
  it('delivers a signed robot text message once, in Chinese, only for the kinds asked', async () => {
    await event(a, 1);
    await event(b, 2); // company b has no webhook
    await h.db
      .transaction()
      .execute((tx) =>
        notify(tx, { tenantId: a.tenantId, kind: 'margin_call', desk: { title: '追保', body: '不在所选事件中' } }),
      );
    const w = worker();
    expect(await w.sweep()).toBe(1);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.signature).toBe(sign(got.body));
    expect(JSON.parse(got.body)).toEqual({
      msgtype: 'text',
      text: { content: '【快期点价宝】客户 alice 点价成交 1\n成交 1 手' },
    });
    expect(await w.sweep()).toBe(0);
    expect(received).toHaveLength(1);
    expect(await deliveries(a)).toMatchObject([
      { title: '客户 alice 点价成交 1', status_str: '已送达', attempts: 1, last_status: 200 },
    ]);
    expect(await deliveries(b)).toEqual([]);
  });

  it('queues a booking’s batch of events (notifyMany) once each', async () => {
    const batch = [1, 2, 3].map((n) => ({
      tenantId: a.tenantId,
      pricerId: a.pricers.alice!.id,
      kind: 'fill' as const,
      mine: { title: '点价成交', body: `第 ${n} 笔` },
      desk: { title: '客户 alice 点价成交', body: `第 ${n} 笔` },
      ref: `batch:${n}`,
    }));
    await h.db.transaction().execute((tx) => notifyMany(tx, batch));
    await h.db.transaction().execute((tx) => notifyMany(tx, batch)); // repeated: nothing new
    expect(await worker().sweep()).toBe(3);
    // Sent in parallel: the receiver may see them in any order.
    expect(received.map((r) => r.content.split('\n')[1]).sort()).toEqual(['第 1 笔', '第 2 笔', '第 3 笔']);
  });

  it('retries a failing receiver with backoff and stops after its 2xx', async () => {
    script = [500, 503];
    await event(a, 3);
    // A backoff a loaded machine cannot outrun between two sweeps (50 ms could pass before the next).
    const w = worker({ backoffBaseMs: 1_000 });
    await w.sweep();
    let [d] = await deliveries(a);
    expect(d).toMatchObject({
      status_str: '重试中',
      attempts: 1,
      last_status: 500,
      last_error: '接收方应答状态码 500',
    });
    expect(await w.sweep()).toBe(0); // not due yet: the backoff
    await waitFor(async () => (await w.sweep()) > 0, 15_000, 50);
    [d] = await deliveries(a);
    expect(d).toMatchObject({ attempts: 2, last_status: 503 });
    await waitFor(async () => (await w.sweep()) > 0, 15_000, 50);
    [d] = await deliveries(a);
    expect(d).toMatchObject({ status_str: '已送达', attempts: 3, last_status: 200, last_error: '' });
    expect(received.map((r) => r.content)).toEqual(Array(3).fill('【快期点价宝】客户 alice 点价成交 3\n成交 3 手'));
    await new Promise((r) => setTimeout(r, 200));
    expect(await w.sweep()).toBe(0);
    expect(received).toHaveLength(3);
  });

  it('cuts a receiver that never answers at the timeout, and gives up 24 h after the event', async () => {
    script = ['hang'];
    await event(a, 4);
    const t0 = performance.now();
    await worker({ timeoutMs: 300 }).sweep();
    expect(performance.now() - t0).toBeLessThan(3_000);
    let [d] = await deliveries(a);
    expect(d).toMatchObject({ status_str: '重试中', attempts: 1, last_status: null, last_error: '超时（300 ms）' });
    // Past the retry window (24 h by default; 0 here): given up.
    script = [500];
    await h.db
      .updateTable('webhook_deliveries')
      .set({ next_at: new Date(0) })
      .execute();
    await worker({ retryForMs: 0 }).sweep();
    [d] = await deliveries(a);
    expect(d).toMatchObject({ status: 'failed', status_str: '已放弃', attempts: 2 });
    expect(await worker().sweep()).toBe(0);
  });

  it('two workers sweeping at once never send one row twice', async () => {
    for (let i = 0; i < 30; i++) await event(a, 100 + i);
    const w1 = worker({ batch: 4 });
    const w2 = worker({ batch: 4 });
    let sent = 0;
    while (sent < 30) {
      const [x, y] = await Promise.all([w1.sweep(), w2.sweep()]);
      sent += x + y;
      if (x + y === 0) break;
    }
    expect(sent).toBe(30);
    const contents = received.map((r) => r.content);
    expect(new Set(contents).size).toBe(30);
    expect(contents).toHaveLength(30);
    expect((await deliveries(a)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it('a crash between the send and its mark: sent again once the claim lapses (at-least-once only there)', async () => {
    await event(a, 5);
    const crash = killSwitch(h.db);
    crash.killAfter(1); // the claim commits, then the process "dies": the 2xx is never marked
    const dying = webhookWorker({
      db: crash.db,
      secrets: h.ctx.secrets,
      logger: silentLogger,
      everyMs: 3_600_000,
      allowPrivate: true,
      leaseMs: 300,
    });
    expect(await dying.sweep()).toBe(1);
    expect(received).toHaveLength(1);
    const other = worker();
    expect(await other.sweep()).toBe(0); // claimed: no other worker takes it while the lease runs
    await new Promise((r) => setTimeout(r, 400));
    expect(await other.sweep()).toBe(1);
    expect(received.map((r) => r.content)).toEqual(Array(2).fill('【快期点价宝】客户 alice 点价成交 5\n成交 5 手'));
    // The same delivery id both times: the receiver can tell the repeat.
    expect(new Set(received.map((r) => r.delivery)).size).toBe(1);
    expect(received[0]!.delivery).toMatch(/^\d+$/);
    expect(await deliveries(a)).toMatchObject([{ status_str: '已送达', attempts: 2 }]);
  });

  it('writes the outbox row in the notification’s transaction: a rolled back event sends nothing', async () => {
    await expect(
      h.db.transaction().execute(async (tx) => {
        await notify(tx, { tenantId: a.tenantId, kind: 'fill', desk: { title: '回滚', body: '不应送出' } });
        throw new Error('the producer failed');
      }),
    ).rejects.toThrow('the producer failed');
    expect(await worker().sweep()).toBe(0);
    expect(await deliveries(a)).toEqual([]);
  });
});

describe('a hostile receiver or address (issue 40)', () => {
  it('blocks IPv6 forms that hide a private or loopback address, and site-local', async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    const hidden = ['::127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a00:1', '2002:7f00:1::', '2002:c0a8:101::1', 'fec0::1'];
    expect(hidden.filter((x) => !isPrivateAddress(x))).toEqual([]);
    for (const host of hidden) {
      const res = await h.call(
        '/api/trader/rpc/set-webhook',
        { url: `http://[${host}]/robot`, secret: SECRET },
        b.token,
      );
      expect(res.status, host).toBe(400);
      expect(res.body.error).toMatchObject({ field: 'url', message: '推送地址不能指向内网、本机或链路本地地址' });
    }
    // 6to4 of a public address stays allowed (8.8.8.8 → 2002:808:808::).
    expect(isPrivateAddress('2002:808:808::1')).toBe(false);
  });

  it('refuses raw CR, LF and control characters in the URL with a Chinese 400, and stores it normalised', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      for (const bad of [
        'https://example.com/a\r\nX-Injected: 1',
        'https://exa\nmple.com/robot',
        'https://example.com/\trobot',
        'https://example.com/\u0085robot',
      ]) {
        const res = await h.call('/api/trader/rpc/set-webhook', { url: bad, secret: SECRET }, b.token);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.error).toMatchObject({ field: 'url', message: '推送地址不能包含换行或控制字符' });
      }
      expect(
        (await h.db.selectFrom('tenant_webhooks').select('url').where('tenant_id', '=', b.tenantId).execute()).length,
      ).toBe(0);
      const port = (server.address() as AddressInfo).port;
      const ok = await h.call(
        '/api/trader/rpc/set-webhook',
        { url: `HTTP://127.0.0.1:${port}/robot/x/../send?key=a b`, secret: SECRET },
        b.token,
      );
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const stored = `http://127.0.0.1:${port}/robot/send?key=a%20b`;
      expect(ok.body.data.url).toBe(stored);
      const row = await h.db
        .selectFrom('tenant_webhooks')
        .select('url')
        .where('tenant_id', '=', b.tenantId)
        .executeTakeFirstOrThrow();
      expect(row.url).toBe(stored);
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
  });

  it('reads at most a few KB of a receiver’s answer: an endless 200 is delivered at once and cut', async () => {
    let sent = 0;
    let closed!: () => void;
    const cut = new Promise<void>((r) => (closed = r));
    const endless = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          let more = true;
          while (!res.destroyed && more) {
            more = res.write(chunk);
            sent += chunk.length;
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', closed);
        pump();
      });
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/robot`;
      await h.db.updateTable('tenant_webhooks').set({ url: target }).where('tenant_id', '=', a.tenantId).execute();
      await event(a, 7);
      const t0 = performance.now();
      await worker({ timeoutMs: 3_000 }).sweep();
      const took = performance.now() - t0;
      await cut;
      const [d] = await deliveries(a);
      expect(d, `took ${Math.round(took)} ms, receiver wrote ${sent} bytes`).toMatchObject({
        status_str: '已送达',
        last_status: 200,
      });
      // What the receiver got into the socket before it was closed (kernel buffers included), not 3 s of stream.
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await h.db.updateTable('tenant_webhooks').set({ url }).where('tenant_id', '=', a.tenantId).execute();
      endless.closeAllConnections();
      await new Promise((r) => endless.close(r));
    }
  });

  it('never sends a pending delivery to a changed URL: the change cancels it, named in the log', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      await event(a, 8);
      const moved = `${url.replace('/robot/send', '/robot/other')}`;
      const res = await h.call('/api/trader/rpc/set-webhook', { url: moved, secret: SECRET }, a.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await event(a, 9);
      expect(await worker().sweep()).toBe(1);
      expect(received.map((r) => r.content)).toEqual(['【快期点价宝】客户 alice 点价成交 9\n成交 9 手']);
      const log = await deliveries(a);
      expect(log.find((d) => d.title === '客户 alice 点价成交 8')).toMatchObject({
        status: 'failed',
        status_str: '已放弃',
        last_error: '推送地址已更改，未发送',
      });
      // Saving the same URL again (a new secret, other kinds) keeps what is pending.
      await event(a, 10);
      await h.call('/api/trader/rpc/set-webhook', { url: moved, secret: SECRET, kinds: ['fill'] }, a.token);
      expect(await worker().sweep()).toBe(1);
    } finally {
      await h.call('/api/trader/rpc/set-webhook', { url, secret: SECRET }, a.token);
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
  });
});
