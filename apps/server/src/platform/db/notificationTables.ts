import type { Generated } from 'kysely';
import type { DefaultTimestamp } from './columns';

/** The notification tables' rows (part of schema.ts's DB; docs/notifications.md): the inbox and the webhooks. */

/** Notifications (migration 018, docs/notifications.md): one row per audience of an event. */
export interface NotificationTable {
  id: Generated<number>;
  tenant_id: number;
  audience: 'trader' | 'pricer';
  pricer_id: number | null;
  kind: string;
  title: string;
  body: string;
  ref: string | null;
  read_at: Date | null;
  created_at: DefaultTimestamp;
}

/** A company's outbound webhook (migration 018): the secret is encrypted (SecretBox). */
export interface TenantWebhookTable {
  tenant_id: number;
  url: string;
  secret_enc: string;
  kinds: string[];
  updated_at: DefaultTimestamp;
}

/** The webhook outbox (migration 018). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  tenant_id: number;
  notification_id: number;
  kind: string;
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_at: DefaultTimestamp;
  claimed_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  delivered_at: Date | null;
}
