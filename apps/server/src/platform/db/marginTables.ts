import type { Generated } from 'kysely';
import type { DefaultNumeric, DefaultTimestamp, Numeric } from './columns';

/** The margin and funds tables' rows (part of schema.ts's DB; docs/margin.md): rates, accounts and the ledger. */

/** A company's margin rate for one product over its default (migration 023, docs/margin.md). */
export interface ProductMarginRateTable {
  tenant_id: number;
  product_name: string;
  margin_rate: Numeric;
  updated_at: DefaultTimestamp;
}

/** A customer's account (migration 012, docs/margin.md): the balance is Σ funds_ledger, kept here. */
export interface PricerAccountTable {
  pricer_id: number;
  tenant_id: number;
  balance: DefaultNumeric;
  credit_line: DefaultNumeric;
  in_call: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

/** The funds ledger: append-only (a trigger refuses UPDATE and DELETE). */
export interface FundsLedgerTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  kind: 'deposit' | 'withdraw' | 'adjust';
  /** Signed: a withdrawal is negative. */
  amount: Numeric;
  balance_after: Numeric;
  note: Generated<string>;
  actor: string;
  /** 银行流水号 of a deposit or withdrawal (migration 027). */
  bank_ref: string | null;
  /** Who approved it, when the approval policy held it (migration 027). */
  checker: string | null;
  created_at: DefaultTimestamp;
}

/** v_funds_ledger (modules/margin/sql.ts): the ledger with its maker's and checker's names (issue 42). */
export interface FundsLedgerViewRow {
  id: number;
  tenant_id: number;
  pricer_id: number;
  kind: string;
  amount: number;
  balance_after: number;
  note: string;
  actor: string;
  bank_ref: string | null;
  checker: string | null;
  created_at: Date;
  maker_name: string;
  checker_name: string | null;
}
