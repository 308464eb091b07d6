/**
 * Issue 31 §7: the margin check of a fixing inside the fixing's own statement (docs/margin.md, Cost). Its view
 * v_margin_sums and its function margin_check() are defined once in modules/margin/sql.ts since issue 39; this
 * migration stays, empty, because databases migrated before record it (Kysely refuses to run when a recorded
 * migration is missing).
 */
export async function up() {}
