import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { requestOrigin } from '../../platform/requestOrigin';

/** The actor of what the server does on its own (deadlines, conditional orders). */
export const SYSTEM_ACTOR = 'system';

const SECRET_KEYS = /password|secret|token/i;

/** Drops anything that looks like a secret before it reaches the audit log. */
export function redact(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([k, v]) => [
      k,
      SECRET_KEYS.test(k)
        ? '[redacted]'
        : v && typeof v === 'object' && !Array.isArray(v)
          ? redact(v as Record<string, unknown>)
          : v,
    ]),
  );
}

/** One row per state-changing call, written in the same transaction as the change. */
export async function audit(
  db: Kysely<DB>,
  entry: { tenantId: number | null; actor: string; action: string; payload: Record<string, unknown> },
) {
  // The request's address and browser, for a trader's or customer's action (issue 30); none for the server's own.
  const origin = entry.actor === SYSTEM_ACTOR ? undefined : requestOrigin();
  await db
    .insertInto('audit_log')
    .values({
      tenant_id: entry.tenantId,
      actor: entry.actor,
      action: entry.action,
      payload: JSON.stringify(redact(entry.payload)),
      ip: origin?.ip ?? null,
      user_agent: origin?.userAgent || null,
    })
    .execute();
}
