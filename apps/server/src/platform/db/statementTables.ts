import type { Generated } from 'kysely';
import type { DefaultTimestamp, Numeric } from './columns';

/** The statement tables' rows (part of schema.ts's DB; docs/statements.md): fees owed and the customer's answers. */

/** A fee the customer owes (migration 025, docs/statements.md): charged open, settled once. */
export interface FeeReceivableTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  contract_id: number;
  kind: 'roll' | 'extension';
  amount: Numeric;
  note: Generated<string>;
  actor: string;
  created_at: DefaultTimestamp;
  status: Generated<FeeStatus>;
  settled_at: Date | null;
  settled_by: string | null;
  settle_note: Generated<string>;
  ledger_entry_id: number | null;
}

export type FeeStatus = 'open' | 'collected' | 'offset' | 'waived';

/** The customer's answer to a statement of a period (migration 025): one per content (digest). */
export interface StatementResponseTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  start_date: string;
  end_date: string;
  digest: string;
  response: 'confirmed' | 'disputed';
  note: Generated<string>;
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
}
