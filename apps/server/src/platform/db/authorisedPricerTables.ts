import type { Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp } from './columns';

/** The 授权点价人 table's rows (migration 030, part of schema.ts's DB; docs/authorised-pricers.md). */
export interface AuthorisedPricerTable {
  id: Generated<number>;
  tenant_id: number;
  /** The customer (pricer_users) the person fixes for. */
  pricer_id: number;
  name: string;
  id_type: 'id_card' | 'passport' | 'hk_macau_permit' | 'taiwan_permit' | 'other' | null;
  /** The ID's last 4 characters only. */
  id_last4: string | null;
  phone: string | null;
  /** The person's login (unique in the tenant, customers' logins included). */
  username: string;
  /** null for the primary person: the customer's password signs them in. */
  password_hash: string | null;
  /** In the person's tokens; bumped when they are switched off. */
  token_version: Generated<number>;
  /** The customer's first login. */
  is_primary: Generated<boolean>;
  active: Generated<boolean>;
  created_by: string;
  created_at: DefaultTimestamp;
  deactivated_at: Timestamp | null;
  last_login_at: Timestamp | null;
}
