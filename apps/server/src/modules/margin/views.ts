import type { ViewDef } from '../../platform/views/engine';

/** A customer's funds ledger as the trader pages through it (newest first). */
export const fundsLedgerView: ViewDef = {
  name: 'funds-ledger',
  relation: 'v_funds_ledger',
  columns: {
    id: { type: 'number' },
    pricer_id: { type: 'number' },
    kind: { type: 'text' },
    amount: { type: 'number' },
    balance_after: { type: 'number' },
    note: { type: 'text' },
    actor: { type: 'text' },
    bank_ref: { type: 'text' },
    checker: { type: 'text' },
    maker_name: { type: 'text' },
    checker_name: { type: 'text' },
    created_at: { type: 'date' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['note', 'bank_ref'],
};
