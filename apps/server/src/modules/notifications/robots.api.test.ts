import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { notify } from './notify';
import { feishuSign, isFeishu } from './robots';
import { webhookWorker } from './webhooks';

/*
 * The robots' own dialects (issue 41, docs/notifications.md) against a real receiver on loopback
 * (WEBHOOK_ALLOW_PRIVATE=1): a 200 whose body is a refusal (errcode / code ≠ 0) is a failure with its
 * reason; Feishu's signed format for a Feishu address (its robot path, as a private deployment keeps
 * it); 发送测试消息; the robot's key kept out of the audit.
 */

interface Received {
  body: string;
  signature: string | undefined;
  content: string;
}

let h: Harness;
let a: Tenant;
let server: http.Server;
let url: string;
let received: Received[];
/** The bodies the receiver answers next (then 'ok'): a robot's JSON answer. */
let replies: string[];
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
    status: string;
    status_str: string;
    attempts: number;
    last_status: number | null;
    last_error: string;
  }[];
const worker = () =>
  webhookWorker({ db: h.db, secrets: h.ctx.secrets, everyMs: 3_600_000, backoffBaseMs: 1, allowPrivate: true });

beforeAll(async () => {
  h = await startHarness();
  // The company first, answered 200 (on a loaded machine the overload guard may answer 503 at start).
  const token = await h.idp.sign({}, { sub: 'trader-robots-a' });
  for (let n = 0; n < 10; n++) {
    const body = { company_name: '甲贸易', tq_account_config: { is_sim: true } };
    if ((await h.call('/api/trader/rpc/trader-profile', body, token)).status === 200) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  a = await setupTenant(h, 'trader-robots-a', '甲贸易', ['alice']);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { text?: { content: string }; content?: { text: string } };
      const sig = req.headers['x-pfp-signature'];
      received.push({
        body,
        signature: typeof sig === 'string' ? sig : undefined,
        // 企业微信/钉钉's text message, or Feishu's.
        content: parsed.text?.content ?? parsed.content?.text ?? '',
      });
      res.writeHead(200).end(replies.shift() ?? 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/robot/send?key=k`;
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  try {
    const res = await h.call('/api/trader/rpc/set-webhook', { url, secret: SECRET }, a.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  } finally {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
  }
});
beforeEach(async () => {
  received = [];
  replies = [];
  await h.db.deleteFrom('webhook_deliveries').execute();
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await h?.close();
});

describe('the robots’ own dialects (issue 41)', () => {
  const base = () => url.replace(/\/robot\/send.*$/, '');
  const setUrl = async (u: string) => {
    const res = await h.call('/api/trader/rpc/set-webhook', { url: u, secret: SECRET }, a.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('counts a robot’s refusal answered with HTTP 200 (errcode ≠ 0) as failed, with its code and words', async () => {
    replies = ['{"errcode":93000,"errmsg":"invalid webhook url, hint: [1700000000_1]"}'];
    await event(a, 11);
    expect(await worker().sweep()).toBe(1);
    expect(received).toHaveLength(1);
    const [row] = await deliveries(a);
    expect(row).toMatchObject({ status: 'failed', status_str: '已放弃', attempts: 1, last_status: 200 });
    expect(row!.last_error).toBe(
      '机器人地址无效（key 错误或机器人已被移出群）（错误码 93000，接收方原文：invalid webhook url, hint: [1700000000_1]）',
    );
    // "Too often" is retried; errcode 0 is a delivery.
    replies = ['{"errcode":45009,"errmsg":"api freq out of limit"}'];
    await event(a, 12);
    expect(await worker().sweep()).toBe(1);
    expect((await deliveries(a))[0]).toMatchObject({ status: 'pending', status_str: '重试中' });
    replies = ['{"errcode":0,"errmsg":"ok"}'];
    await new Promise((r) => setTimeout(r, 5)); // its backoff (base 1 ms) has passed
    expect(await worker().sweep()).toBe(1);
    expect((await deliveries(a))[0]).toMatchObject({ status: 'delivered', status_str: '已送达' });
  });

  it('speaks Feishu’s format, signed its way, to a Feishu robot address; reads its code ≠ 0 as a refusal', async () => {
    expect(isFeishu('https://open.feishu.cn/open-apis/bot/v2/hook/0f1e')).toBe(true);
    expect(isFeishu('https://open.larksuite.com/open-apis/bot/v2/hook/0f1e')).toBe(true);
    expect(isFeishu('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=0f1e')).toBe(false);
    expect(isFeishu('https://oapi.dingtalk.com/robot/send?access_token=0f1e')).toBe(false);
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      // A private Feishu deployment keeps the robot path: so is the loopback receiver addressed.
      await setUrl(`${base()}/open-apis/bot/v2/hook/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`);
      await event(a, 13);
      expect(await worker().sweep()).toBe(1);
      const sent = JSON.parse(received[0]!.body) as Record<string, unknown>;
      expect(sent).toEqual({
        timestamp: expect.stringMatching(/^\d{10}$/),
        sign: feishuSign(Number(sent.timestamp), SECRET),
        msg_type: 'text',
        content: { text: '【快期点价宝】客户 alice 点价成交 13\n成交 13 手' },
      });
      expect(Math.abs(Number(sent.timestamp) - Date.now() / 1000)).toBeLessThan(600);
      expect(received[0]!.signature).toBe(sign(received[0]!.body));
      expect((await deliveries(a))[0]).toMatchObject({ status: 'delivered' });

      replies = ['{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}'];
      await event(a, 14);
      expect(await worker().sweep()).toBe(1);
      expect((await deliveries(a))[0]).toMatchObject({
        status: 'failed',
        last_error:
          '签名校验失败（错误码 19021，接收方原文：sign match fail or timestamp is not within one hour from current time）',
      });
    } finally {
      await setUrl(url);
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
  });

  it('sends a test message at once on 发送测试消息 and answers what the robot said', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      const ok = await h.call('/api/trader/rpc/test-webhook', {}, a.token);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data).toEqual({ delivered: true, status: 200, message: '测试消息已送达' });
      expect(received.map((r) => r.content)).toEqual([
        '【快期点价宝】测试消息\n这是一条来自快期点价宝的测试消息：收到即表示通知推送设置正确',
      ]);
      expect(received[0]!.signature).toBe(sign(received[0]!.body));

      replies = ['{"errcode":93000,"errmsg":"invalid webhook url"}'];
      const refused = await h.call('/api/trader/rpc/test-webhook', {}, a.token);
      expect(refused.body.data).toEqual({
        delivered: false,
        status: 200,
        message: '机器人地址无效（key 错误或机器人已被移出群）（错误码 93000，接收方原文：invalid webhook url）',
      });
      // Nothing queued or logged by a test.
      expect(await deliveries(a)).toEqual([]);
      // A company without a robot: a Chinese 400 naming the address.
      const c = await setupTenant(h, 'trader-hook-c', '丙贸易', []);
      const none = await h.call('/api/trader/rpc/test-webhook', {}, c.token);
      expect(none.status).toBe(400);
      expect(none.body.error).toMatchObject({ field: 'url', message: '请先填写并保存推送地址' });
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
  });

  it('keeps the robot’s key out of the audit log', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      for (const u of [
        `${base()}/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa`,
        `${base()}/robot/send?access_token=c4a2f0e9d8b7a6c5d4e3f2a1b0c9d8e7`,
        `${base()}/open-apis/bot/v2/hook/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`,
      ])
        await setUrl(u);
      const rows = await h.db
        .selectFrom('audit_log')
        .select(['payload'])
        .where('tenant_id', '=', a.tenantId)
        .where('action', '=', 'set-webhook')
        .orderBy('id', 'desc')
        .limit(3)
        .execute();
      const text = rows.map((r) => JSON.stringify(r.payload)).join('\n');
      for (const key of ['693a91f6-7xxx', 'c4a2f0e9d8b7a6c5', '0f1e2d3c-4b5a']) expect(text).not.toContain(key);
      expect(text).toContain('/cgi-bin/webhook/send?key=***');
      expect(text).toContain('/open-apis/bot/v2/hook/***');
    } finally {
      await setUrl(url);
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
    }
  });
});
