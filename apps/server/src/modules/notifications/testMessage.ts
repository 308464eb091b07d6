import { zh } from '@pfp/i18n';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../../platform/auth/secrets';
import type { DB } from '../../platform/db/schema';
import { invalid } from '../../platform/errors';
import { webhookBody } from './notify';
import { send } from './webhooks';

const T = zh.notifications;

/**
 * 发送测试消息 (issue 41): one message to the saved robot, now, in its dialect and signed like a
 * delivery; the answer read as a delivery's. Not queued, not logged: the trader reads the outcome at once.
 */
export async function testWebhook(
  db: Kysely<DB>,
  secrets: SecretBox,
  tenantId: number,
  allowPrivate: boolean,
  timeoutMs = 5_000,
) {
  const w = await db
    .selectFrom('tenant_webhooks')
    .select(['url', 'secret_enc'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!w || w.url === '') throw invalid(T.webhook.noUrl, 'url');
  let secret: string;
  try {
    secret = secrets.decrypt(w.secret_enc);
  } catch {
    throw invalid('签名密钥无法解密，请重新填写并保存', 'secret');
  }
  const sent = await send(w.url, webhookBody(T.texts.testMessage), secret, 'test', timeoutMs, allowPrivate);
  return sent.ok
    ? { delivered: true, status: sent.status, message: T.webhook.testDelivered }
    : { delivered: false, status: sent.status, message: sent.error };
}
