import { createHmac } from 'node:crypto';

/**
 * The group robots' own dialects (issue 41, docs/notifications.md): what each expects to receive and how
 * each says "no" — 企业微信 and 钉钉 answer HTTP 200 with `errcode` ≠ 0, 飞书 with `code` ≠ 0.
 */

/**
 * A Feishu / Lark robot: its public hosts, or its robot path `/open-apis/bot/` on any host (a private
 * Feishu deployment keeps the path; the tests' loopback receiver is addressed so — no test-only switch).
 */
export function isFeishu(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const feishuHost = [
    'feishu.cn',
    'larksuite.com',
    'larkoffice.com',
    'feishu-boe.cn', // Feishu's own staging hosts used by some ISVs
  ].some((d) => host === d || host.endsWith(`.${d}`));
  return feishuHost || url.pathname.startsWith('/open-apis/bot/');
}

/**
 * Feishu's signature (its 安全设置 › 签名校验): base64 of HMAC-SHA256 keyed by `timestamp + "\n" + secret`
 * over nothing. A robot without the check ignores the two fields.
 */
export const feishuSign = (timestamp: number, secret: string) =>
  createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');

/**
 * The body sent to `url`: the outbox keeps the 企业微信/钉钉 text message ({msgtype, text.content}); a
 * Feishu robot gets its own ({timestamp, sign, msg_type, content.text}), signed with the company's secret.
 */
export function bodyFor(url: string, stored: string, secret: string, now = Date.now()): string {
  if (!isFeishu(url)) return stored;
  let content: string;
  try {
    content = String((JSON.parse(stored) as { text?: { content?: unknown } }).text?.content ?? '');
  } catch {
    content = stored;
  }
  const timestamp = Math.floor(now / 1000);
  return JSON.stringify({
    timestamp: String(timestamp),
    sign: feishuSign(timestamp, secret),
    msg_type: 'text',
    content: { text: content },
  });
}

/** What the robots' codes mean, in Chinese for the delivery log. */
const KNOWN: Record<number, string> = {
  // 企业微信
  93000: '机器人地址无效（key 错误或机器人已被移出群）',
  40008: '消息类型无效',
  45009: '发送太频繁',
  // 钉钉
  300001: '机器人地址无效（access_token 不存在）',
  310000: '签名、关键词或 IP 白名单校验未通过',
  130101: '发送太频繁',
  // 飞书
  19001: '参数错误',
  19021: '签名校验失败',
  19022: 'IP 不在白名单内',
  19024: '消息未包含机器人设置的关键词',
  9499: '发送太频繁或请求无效',
  11232: '发送太频繁',
};
/** The "too often" codes: worth a retry with backoff; any other refusal is a setting to fix, not retried. */
const TRANSIENT = new Set([45009, 130101, 11232, 9499]);

export interface Refusal {
  /** The log's text: our reading, the code, and the robot's own words as evidence. */
  error: string;
  retry: boolean;
}

/**
 * A 2xx answer that is a robot's refusal (`errcode` or `code` ≠ 0), or null for an acceptance (code 0,
 * no code, or not JSON: a receiver of our own that answers "ok").
 */
export function refusalOf(answer: string): Refusal | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const a = parsed as Record<string, unknown>;
  const code = typeof a.errcode === 'number' ? a.errcode : typeof a.code === 'number' ? a.code : 0;
  if (code === 0) return null;
  const said = [a.errmsg, a.msg].find((m): m is string => typeof m === 'string' && m.trim() !== '');
  const reading = KNOWN[code] ?? '机器人拒收';
  return {
    error: `${reading}（错误码 ${code}${said ? `，接收方原文：${said.trim().slice(0, 200)}` : ''}）`,
    retry: TRANSIENT.has(code),
  };
}

/** The address as the audit log keeps it: the robot's key (query values, the hook's token) masked. */
export function maskedUrl(raw: string): string {
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '***';
  }
  for (const k of [...url.searchParams.keys()]) url.searchParams.set(k, '***');
  // …/hook/<token> (飞书) or a last path segment that looks like a key.
  url.pathname = url.pathname.replace(/\/([^/]{16,})$/, '/***').replace(/(\/hook\/)[^/]+/, '$1***');
  return decodeURI(url.href);
}
