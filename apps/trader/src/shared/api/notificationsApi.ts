import type { SetWebhookInput, ViewPage } from '@pfp/contract';
import type { TraderCall } from './client';

/** A row of the webhook's delivery log (v_webhook_deliveries). */
export interface WebhookDeliveryRow {
  id: number;
  kind: string;
  title: string;
  status: 'pending' | 'delivered' | 'failed';
  status_str: string;
  attempts: number;
  last_status: number | null;
  last_error: string;
  created_at: string;
  delivered_at: string | null;
  next_at: string | null;
}

/** The calls of notifications and the webhook (docs/notifications.md), by the contract's route names. */
export function notificationsApi(call: TraderCall) {
  return {
    notifications: () => call('notifications', { limit: 50 }),
    markNotificationsRead: (input: { ids?: number[]; all?: boolean }) => call('markNotificationsRead', input),
    webhook: () => call('webhook', undefined),
    setWebhook: (input: SetWebhookInput) => call('setWebhook', input),
    webhookDeliveries: () =>
      call('webhookDeliveries', { slice_start: 0, slice_end: 50 }) as unknown as Promise<ViewPage<WebhookDeliveryRow>>,
  };
}
