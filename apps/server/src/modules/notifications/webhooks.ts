import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { lookup as lookupCallback, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { NotificationKind } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { SecretBox } from '../../platform/auth/secrets';
import type { DB } from '../../platform/db/schema';
import { invalid } from '../../platform/errors';
import { every, type Periodic } from '../../platform/every';
import { consoleLogger, type Logger } from '../../platform/logger';
import { audit } from '../audit/audit';
import { bodyFor, maskedUrl, refusalOf } from './robots';

/** Addresses a webhook may not reach (SSRF): private, loopback, link-local, CGNAT, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (::127.0.0.1)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): ::ffff:0:7f00:1
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');
// IPv4-mapped IPv6 (::ffff:10.0.0.1, ::ffff:7f00:1) is checked against the IPv4 subnets by BlockList itself.

/** The 8 groups of an IPv6 address isIP accepted (a trailing dotted quad and a zone allowed). */
function groupsOf(address: string): number[] {
  let a = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (quad) {
    const [b0, b1, b2, b3] = quad.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, quad.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head = '', tail] = a.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/** 6to4 (2002::/16) carries an IPv4 address in its groups 2–3: 2002:7f00:1:: is 127.0.0.1. */
function sixToFourIPv4(address: string): string | undefined {
  const g = groupsOf(address);
  if (g[0] !== 0x2002) return undefined;
  return [g[1]! >> 8, g[1]! & 255, g[2]! >> 8, g[2]! & 255].join('.');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  const v4 = sixToFourIPv4(address);
  return PRIVATE.check(address, 'ipv6') || (v4 !== undefined && PRIVATE.check(v4, 'ipv4'));
}

/** WEBHOOK_ALLOW_PRIVATE=1: tests and on-premise chat servers on the company's own network. */
export const allowPrivateFromEnv = () => process.env.WEBHOOK_ALLOW_PRIVATE === '1';

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Refuses a target that is not http(s) or whose host resolves (any of its addresses) to a private
 * address: a 400 naming `url`.
 */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('推送地址必须是完整的网址，例如 https://open.feishu.cn/open-apis/bot/v2/hook/…', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('推送地址必须是完整的网址，例如 https://open.feishu.cn/open-apis/bot/v2/hook/…', 'url');
  if (url.username || url.password) throw invalid('推送地址不能包含用户名或密码', 'url');
  if (allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw invalid(`推送地址的主机名 ${host} 无法解析`, 'url');
  }
  if (!addresses.length || addresses.some(isPrivateAddress))
    throw invalid('推送地址不能指向内网、本机或链路本地地址', 'url');
}

/** A DNS lookup for the delivery's connection that fails on any private address (checked where it connects). */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookupCallback(hostname, { ...options, all: true, verbatim: true }, (err, found: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const list = found;
    if (!list.length || list.some((a) => isPrivateAddress(a.address)))
      return callback(Object.assign(new Error('推送地址指向内网地址'), { code: 'EPRIVATE' }), '', 0);
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

export interface WebhookSettingsRow {
  url: string;
  kinds: string[];
  has_secret: boolean;
  updated_at: Date | null;
}

export async function readWebhook(db: Kysely<DB>, tenantId: number): Promise<WebhookSettingsRow> {
  const w = await db
    .selectFrom('tenant_webhooks')
    .select(['url', 'kinds', 'secret_enc', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return w
    ? { url: w.url, kinds: w.kinds, has_secret: w.secret_enc !== '', updated_at: w.updated_at }
    : { url: '', kinds: [], has_secret: false, updated_at: null };
}

/** Why a pending delivery was not sent: its company's robot address changed (docs/notifications.md). */
export const URL_CHANGED = '推送地址已更改，未发送';

/**
 * set-webhook: checked (address, secret), saved normalised (as the WHATWG URL parser writes it) and
 * audited (without the secret). An empty url turns it off. A changed address cancels the deliveries still
 * pending for the old one: a delivery goes to the robot it was queued for or nowhere — the trader
 * usually changes it because it was the wrong group.
 */
export async function setWebhook(
  db: Kysely<DB>,
  secrets: SecretBox,
  tenantId: number,
  actor: string,
  input: { url: string; secret: string; kinds: NotificationKind[] },
  allowPrivate: boolean,
): Promise<WebhookSettingsRow> {
  if (input.url !== '') await checkTarget(input.url, allowPrivate);
  const url = input.url === '' ? '' : new URL(input.url).href;
  const kinds = [...new Set(input.kinds)];
  await db.transaction().execute(async (tx) => {
    const old = await tx
      .selectFrom('tenant_webhooks')
      .select(['secret_enc', 'url'])
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    const secretEnc = input.secret !== '' ? secrets.encrypt(input.secret) : (old?.secret_enc ?? '');
    if (url !== '' && secretEnc === '') throw invalid('请填写签名密钥', 'secret');
    await tx
      .insertInto('tenant_webhooks')
      .values({ tenant_id: tenantId, url, secret_enc: secretEnc, kinds })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({ url, secret_enc: secretEnc, kinds, updated_at: new Date() }),
      )
      .execute();
    // A row claimed right now is in flight to the old address it was queued for; its mark then finds it
    // no longer pending and leaves it so.
    const cancelled =
      old && old.url !== url
        ? await tx
            .updateTable('webhook_deliveries')
            .set({ status: 'failed', last_error: URL_CHANGED, claimed_until: null })
            .where('tenant_id', '=', tenantId)
            .where('status', '=', 'pending')
            .executeTakeFirst()
        : undefined;
    await audit(tx, {
      tenantId,
      actor,
      action: 'set-webhook',
      // The robot's key is in its address (?key=, ?access_token=, /hook/<token>): never in the log.
      payload: { url: maskedUrl(url), kinds, cancelled_deliveries: Number(cancelled?.numUpdatedRows ?? 0) },
    });
  });
  return readWebhook(db, tenantId);
}

/** X-PFP-Signature: `sha256=` and the hex HMAC-SHA256 of the raw body with the secret. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/** How much of a receiver's answer is read before the connection is closed: its status and a robot's code. */
const ANSWER_READ_MAX = 4 * 1024;

/**
 * One POST; resolves with the status (any) and the answer's first bytes once the answer ended or its
 * first ANSWER_READ_MAX bytes came (then the connection is closed: a receiver streaming gigabytes holds
 * the worker no longer), rejects on a network error or after `timeoutMs` in all.
 */
function post(raw: string, body: string, headers: Record<string, string>, timeoutMs: number, allowPrivate: boolean) {
  return new Promise<{ status: number; answer: string }>((resolve, reject) => {
    const url = new URL(raw);
    const host = hostOf(url);
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) return reject(new Error('推送地址指向内网地址'));
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'pfp-webhook/1',
        ...headers,
      },
      ...(allowPrivate ? {} : { lookup: publicLookup }),
      agent: false,
    });
    // The whole exchange, not only idle time: a receiver dripping bytes is cut too.
    const timer = setTimeout(() => req.destroy(new Error(`超时（${timeoutMs} ms）`)), timeoutMs);
    req.on('response', (res) => {
      let read = 0;
      const chunks: Buffer[] = [];
      const done = () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          answer: Buffer.concat(chunks).subarray(0, ANSWER_READ_MAX).toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (read < ANSWER_READ_MAX) chunks.push(chunk);
        read += chunk.length;
        if (read < ANSWER_READ_MAX) return;
        done();
        req.destroy();
      });
      res.on('end', done);
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

/** A failed send in Chinese for the delivery log (the settings page shows it). */
function networkError(err: unknown): string {
  const code = (err as { code?: string }).code;
  const known: Record<string, string> = {
    ECONNREFUSED: '连接被拒绝',
    ECONNRESET: '连接被重置',
    ENOTFOUND: '主机名无法解析',
    EAI_AGAIN: '主机名暂时无法解析',
    ETIMEDOUT: '连接超时',
    EHOSTUNREACH: '主机不可达',
    ENETUNREACH: '网络不可达',
    EPRIVATE: '推送地址指向内网地址',
  };
  if (code && known[code]) return known[code];
  const message = err instanceof Error ? err.message : String(err);
  // Our own messages (the timeout, a private address) are Chinese already.
  return /[\u4e00-\u9fff]/.test(message) ? message : '网络错误';
}

export type Sent = { ok: true; status: number } | { ok: false; status: number | null; error: string; retry: boolean };

/**
 * One delivery in the robot's dialect (robots.ts), signed, its answer read: a 2xx whose body is a
 * robot's refusal (errcode / code ≠ 0) is a failure with the robot's reason, retried only when it
 * says "too often".
 */
export async function send(
  url: string,
  stored: string,
  secret: string,
  delivery: string,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<Sent> {
  const body = bodyFor(url, stored, secret);
  try {
    const { status, answer } = await post(
      url,
      body,
      { 'x-pfp-signature': signature(secret, body), 'x-pfp-delivery': delivery },
      timeoutMs,
      allowPrivate,
    );
    if (status < 200 || status >= 300) return { ok: false, status, error: `接收方应答状态码 ${status}`, retry: true };
    const refused = refusalOf(answer);
    return refused ? { ok: false, status, ...refused } : { ok: true, status };
  } catch (err) {
    return { ok: false, status: null, error: networkError(err), retry: true };
  }
}

/** The retry after the n-th failed attempt: 5 s, 10 s, 20 s … at most an hour (base `baseMs`). */
export const backoffMs = (attempts: number, baseMs = 5_000) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);

export interface WebhookWorkerOptions {
  db: Kysely<DB>;
  secrets: SecretBox;
  logger?: Logger;
  /** How often the outbox is swept. Default 1 s. */
  everyMs?: number;
  /** One delivery's whole exchange. Default 5 s. */
  timeoutMs?: number;
  /** How long a claim keeps a row from other workers; far above timeoutMs. Default 60 s. */
  leaseMs?: number;
  /** Retries for this long after the event, then the row is given up ('failed'). Default 24 h. */
  retryForMs?: number;
  backoffBaseMs?: number;
  /** Rows claimed per sweep. Default 20. */
  batch?: number;
  allowPrivate?: boolean;
}

interface Claimed {
  id: number;
  tenant_id: number;
  body: string;
  attempts: number;
  created_at: Date;
  url: string | null;
  secret_enc: string | null;
}

/**
 * The outbox worker (docs/notifications.md). Each sweep CLAIMS due rows in one committed statement
 * (claimed_until = now + lease, `for update skip locked`: two workers never take the same row), then
 * sends them — off every request path, each with its timeout — and marks each: delivered after a 2xx
 * (never sent again: only pending rows are claimed), otherwise retried with exponential backoff until
 * 24 h after the event, then failed. A worker that dies between the send and the mark leaves the row
 * claimed until its lease ends; it is then sent again (at-least-once only there).
 */
export function webhookWorker(opts: WebhookWorkerOptions): Periodic & { sweep(): Promise<number> } {
  const { db } = opts;
  const logger = opts.logger ?? consoleLogger;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const retryForMs = opts.retryForMs ?? 86_400_000;
  const batch = opts.batch ?? 20;
  const allowPrivate = opts.allowPrivate ?? allowPrivateFromEnv();

  const claim = async (): Promise<Claimed[]> => {
    const { rows } = await sql<Claimed>`
      with due as (
        select id from webhook_deliveries
         where status = 'pending' and next_at <= now() and (claimed_until is null or claimed_until < now())
         order by next_at, id
         limit ${batch}::integer
           for update skip locked
      ),
      claimed as (
        update webhook_deliveries d
           set claimed_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = d.attempts + 1
          from due where d.id = due.id
        returning d.id, d.tenant_id, d.body, d.attempts, d.created_at
      )
      select c.*, w.url, w.secret_enc
        from claimed c left join tenant_webhooks w on w.tenant_id = c.tenant_id
       order by c.id`.execute(db);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  };

  const delivered = (id: number, status: number) =>
    sql`update webhook_deliveries
           set status = 'delivered', delivered_at = now(), last_status = ${status}::integer, last_error = null,
               claimed_until = null
         where id = ${id}::bigint and status = 'pending'`.execute(db);

  const failed = (row: Claimed, status: number | null, error: string, giveUp = false) => {
    const wait = backoffMs(row.attempts, opts.backoffBaseMs);
    const over = giveUp || row.created_at.getTime() + retryForMs < Date.now() + wait;
    return sql`update webhook_deliveries
           set status = ${over ? 'failed' : 'pending'}::text, last_status = ${status}::integer,
               last_error = ${error.slice(0, 500)}::text, claimed_until = null,
               next_at = now() + ${`${wait} milliseconds`}::interval
         where id = ${row.id}::bigint and status = 'pending'`.execute(db);
  };

  const deliver = async (row: Claimed) => {
    if (!row.url || !row.secret_enc) return failed(row, null, '推送已停用', true);
    let secret: string;
    try {
      secret = opts.secrets.decrypt(row.secret_enc);
    } catch {
      return failed(row, null, '签名密钥无法解密', true);
    }
    const outcome = await send(row.url, row.body, secret, String(row.id), timeoutMs, allowPrivate);
    if (outcome.ok) return delivered(row.id, outcome.status);
    return failed(row, outcome.status, outcome.error, !outcome.retry);
  };

  const sweep = async () => {
    const rows = await claim();
    await Promise.all(
      rows.map((r) => deliver(r).catch((err: unknown) => logger.error({ err, id: r.id }, 'webhook: mark failed'))),
    );
    return rows.length;
  };
  const periodic = every('webhook deliveries', opts.everyMs ?? 1_000, async () => void (await sweep()), logger);
  return { ...periodic, sweep };
}
