import type { ViewDef } from '../../platform/views/engine';

/** The audit log as the trader reads it. */
export const auditLogView: ViewDef = {
  name: 'audit-log',
  relation: 'v_audit_log',
  columns: {
    id: { type: 'number' },
    actor: { type: 'text' },
    actor_name: { type: 'text' },
    actor_kind: { type: 'text' },
    action: { type: 'text' },
    payload: { type: 'text' },
    created_at: { type: 'date' },
    ip: { type: 'text' },
    user_agent: { type: 'text' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['actor_name', 'action', 'payload', 'ip'],
};
