import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';

/** Whose notifications: a customer's own, or the company's traders' (their shared inbox). */
export type Reader =
  { tenantId: number; audience: 'trader' } | { tenantId: number; audience: 'pricer'; pricerId: number };

const mineOnly = (r: Reader) =>
  r.audience === 'pricer'
    ? sql`tenant_id = ${r.tenantId}::integer and audience = 'pricer' and pricer_id = ${r.pricerId}::integer`
    : sql`tenant_id = ${r.tenantId}::integer and audience = 'trader'`;

async function unreadCount(db: Kysely<DB>, r: Reader): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::integer as n from notifications where ${mineOnly(r)} and read_at is null`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The reader's notifications, newest first, and how many are unread. */
export async function readNotifications(db: Kysely<DB>, r: Reader, opts: { limit: number; unread_only: boolean }) {
  const { rows } = await sql<{
    id: number;
    kind: string;
    title: string;
    body: string;
    created_at: Date;
    read: boolean;
  }>`
    select id, kind, title, body, created_at, read_at is not null as read
      from notifications
     where ${mineOnly(r)} ${opts.unread_only ? sql`and read_at is null` : sql``}
     order by id desc
     limit ${opts.limit}::integer`.execute(db);
  return {
    items: rows.map((n) => ({
      id: Number(n.id),
      kind: n.kind,
      title: n.title,
      text: n.body,
      created_at: n.created_at,
      read: Boolean(n.read),
    })),
    unread_count: await unreadCount(db, r),
  };
}

/** Marks the reader's notifications read (`ids`, or all); ids of anyone else change nothing. */
export async function markRead(
  db: Kysely<DB>,
  r: Reader,
  input: { ids?: number[] | undefined; all?: boolean | undefined },
) {
  const only = input.all ? sql`` : sql`and id in (${sql.join(input.ids ?? [0])})`;
  const { rows } = await sql<{ id: number }>`
    update notifications set read_at = now()
     where ${mineOnly(r)} and read_at is null ${only}
     returning id`.execute(db);
  return { marked: rows.length, unread_count: await unreadCount(db, r) };
}
