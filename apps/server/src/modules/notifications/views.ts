import type { ViewDef } from '../../platform/views/engine';

/** The webhook's delivery log as the settings page pages through it (newest first). */
export const webhookDeliveriesView: ViewDef = {
  name: 'webhook-deliveries',
  relation: 'v_webhook_deliveries',
  columns: {
    id: { type: 'number' },
    kind: { type: 'text' },
    title: { type: 'text' },
    status: { type: 'text' },
    status_str: { type: 'text' },
    attempts: { type: 'number' },
    last_status: { type: 'number' },
    last_error: { type: 'text' },
    created_at: { type: 'date' },
    delivered_at: { type: 'date' },
    next_at: { type: 'date' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['title'],
};
