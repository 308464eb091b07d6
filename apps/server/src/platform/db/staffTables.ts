import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from './columns';

/** The staff and maker-checker tables' rows (part of schema.ts's DB; docs/roles.md). */

/** A company's staff member and roles (migration 027, docs/roles.md). */
export interface StaffTable {
  tenant_id: number;
  trader_sub: string;
  full_name: Generated<string>;
  roles: string[];
  status: Generated<'active' | 'disabled'>;
  created_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** A call held for a second person (maker-checker, migration 027, docs/roles.md). */
export interface ApprovalRequestTable {
  id: Generated<number>;
  tenant_id: number;
  action: string;
  body: ColumnType<unknown, string, string>;
  subject: string;
  subject_state: string;
  subject_label: Generated<string>;
  before: ColumnType<unknown, string | null, string | null> | null;
  after: ColumnType<unknown, string | null, string | null> | null;
  maker: string;
  status: Generated<'pending' | 'approved' | 'rejected' | 'failed'>;
  checker: string | null;
  reason: string | null;
  result: ColumnType<unknown, string | null, string | null> | null;
  created_at: DefaultTimestamp;
  decided_at: Date | null;
}
