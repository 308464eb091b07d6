/**
 * Issue 33: a customer's notification raises their data version. Its trigger (notifications_inserted_raise_versions)
 * is defined once in modules/notifications/sql.ts since issue 39; this migration stays, empty, because databases
 * migrated before record it (Kysely refuses to run when a recorded migration is missing).
 */
export async function up() {}
