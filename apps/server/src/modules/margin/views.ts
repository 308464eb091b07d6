import type { ViewDef } from '../../platform/views/engine';

/** A customer's funds ledger as the trader pages through it (newest first). */
export const fundsLedgerView: ViewDef = {
  name: 'funds-ledger',
  relation: 'funds_ledger',
  columns: {
    id: { type: 'number' },
    pricer_id: { type: 'number' },
    kind: { type: 'text' },
    amount: { type: 'number' },
    balance_after: { type: 'number' },
    note: { type: 'text' },
    actor: { type: 'text' },
    created_at: { type: 'date' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['note'],
};
