import type { DefaultTimestamp } from './columns';

/** The 点价协议 tables' rows (migration 029, part of schema.ts's DB; docs/agreement.md). */

export interface AgreementTemplateTable {
  tenant_id: number;
  version: number;
  title: string;
  body: string;
  /** Every customer must accept this version (or a later one) before fixing again. */
  required: boolean;
  /** The trader's subject (`seed` for the built-in default). */
  created_by: string;
  created_at: DefaultTimestamp;
}

export interface AgreementAcceptanceTable {
  pricer_id: number;
  tenant_id: number;
  version: number;
  accepted_at: DefaultTimestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface AgreementSignatureTable {
  pricer_id: number;
  tenant_id: number;
  version: number;
  reference: string;
  /** 'YYYY-MM-DD' (database.ts keeps date columns as text). */
  signed_on: string;
  file_name: string | null;
  recorded_by: string;
  recorded_at: DefaultTimestamp;
}
