import { z } from 'zod';
import { id, text, timestamp } from './primitives';

/**
 * Notifications and outbound webhooks (issue 33, docs/notifications.md): the in-app centre of the
 * trader console and the customer desk, and the company's team-chat robot. Additions to the SPEC's calls.
 */

/** What can happen, each with its Chinese name in @pfp/i18n (zh.notifications.kinds). */
export const NOTIFICATION_KINDS = [
  'fill',
  'conditional_fired',
  'conditional_expired',
  'contract_paused',
  'contract_expired',
  'contract_rolled',
  'roll_application',
  'deadline_t3',
  'deadline_t1',
  'deadline_today',
  'margin_call',
  'margin_call_end',
  'confirmation_pending',
  /** A maker's request was approved or rejected (issue 42). */
  'approval_decided',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The most notifications one page answers (newest first). */
export const NOTIFICATIONS_PAGE_MAX = 100;

export const notificationsRequest = z
  .object(
    {
      limit: z
        .int({ error: '条数必须是整数' })
        .min(1, { error: '条数至少为 1' })
        .max(NOTIFICATIONS_PAGE_MAX, { error: `条数不能超过 ${NOTIFICATIONS_PAGE_MAX}` })
        .optional()
        .default(50),
      unread_only: z.boolean({ error: '仅未读必须是 true 或 false' }).optional().default(false),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .optional()
  .default({ limit: 50, unread_only: false });
export type NotificationsRequest = z.input<typeof notificationsRequest>;

export const notification = z.object({
  id: z.int(),
  kind: z.string(),
  /** Chinese, written when the event happened. */
  title: z.string(),
  text: z.string(),
  created_at: timestamp,
  read: z.boolean(),
});
export type Notification = z.input<typeof notification>;

export const notificationsPage = z.object({ items: z.array(notification), unread_count: z.int() });
export type NotificationsPage = z.input<typeof notificationsPage>;

/** Mark read: the given ids (another user's are ignored), or every one of the caller's (`all`). */
export const markNotificationsReadInput = z
  .object(
    {
      ids: z
        .array(id('通知编号必须是正整数'), { error: 'ids 必须是通知编号的数组' })
        .max(500, { error: '一次最多标记 500 条通知' })
        .optional(),
      all: z.boolean({ error: '全部已读必须是 true 或 false' }).optional(),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .refine((v) => v.all === true || (v.ids !== undefined && v.ids.length > 0), {
    error: '请选择要标记为已读的通知',
    path: ['ids'],
  });
export type MarkNotificationsReadInput = z.input<typeof markNotificationsReadInput>;

export const markNotificationsReadResult = z.object({ marked: z.int(), unread_count: z.int() });
export type MarkNotificationsReadResult = z.input<typeof markNotificationsReadResult>;

/** The robot address: http(s) only, at most 2000 characters (the private-address check is the server's). */
export const webhookUrl = text('推送地址必须是文本')
  .trim()
  .max(2000, { error: '推送地址不能超过 2000 个字符' })
  // The URL parser drops a raw CR, LF or tab silently: 'exa\nmple.com' would be saved as another address.
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f-\u009f]/.test(v), { error: '推送地址不能包含换行或控制字符' })
  .refine(
    (v) => {
      if (v === '') return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: '推送地址必须是完整的网址，例如 https://open.feishu.cn/open-apis/bot/v2/hook/…' },
  );

/**
 * set-webhook: an empty url turns the webhook off. The secret signs every delivery
 * (X-PFP-Signature: sha256=<hex HMAC-SHA256 of the raw body>); empty keeps the one saved.
 */
export const setWebhookInput = z.object(
  {
    url: webhookUrl,
    secret: text('签名密钥必须是文本').max(200, { error: '签名密钥不能超过 200 个字符' }).optional().default(''),
    kinds: z
      .array(z.enum(NOTIFICATION_KINDS, { error: '推送事件类型无效' }), { error: 'kinds 必须是事件类型的数组' })
      .max(NOTIFICATION_KINDS.length, { error: '推送事件类型重复' })
      .optional()
      .default([...NOTIFICATION_KINDS]),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type SetWebhookInput = z.input<typeof setWebhookInput>;

/** The company's webhook as the settings page reads it (the secret is never answered). */
export const webhookSettings = z.object({
  url: z.string(),
  kinds: z.array(z.string()),
  has_secret: z.boolean(),
  updated_at: timestamp.nullable(),
});
export type WebhookSettings = z.input<typeof webhookSettings>;

/**
 * test-webhook (issue 41): one test message sent at once to the saved robot, its answer read as a
 * delivery's (a robot's errcode / code ≠ 0 is a failure with its reason). Nothing is stored.
 */
export const testWebhookResult = z.object({
  delivered: z.boolean(),
  /** The receiver's HTTP status; null when none came (network error, timeout). */
  status: z.int().nullable(),
  /** 测试消息已送达, or why not, in Chinese. */
  message: z.string(),
});
export type TestWebhookResult = z.input<typeof testWebhookResult>;

/** A row of the webhook's delivery log (v_webhook_deliveries), newest first. */
export const webhookDeliveryRow = z.object({
  id: z.int(),
  kind: z.string(),
  title: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  /** 待发送, 重试中, 已送达 or 已放弃. */
  status_str: z.string(),
  attempts: z.int(),
  last_status: z.int().nullable(),
  last_error: z.string(),
  created_at: timestamp,
  delivered_at: timestamp.nullable(),
  next_at: timestamp.nullable(),
});
export type WebhookDeliveryRow = z.input<typeof webhookDeliveryRow>;
