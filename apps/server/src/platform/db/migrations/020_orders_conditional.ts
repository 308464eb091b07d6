/**
 * Issue 29: v_orders names the 条件单 an order came from (conditional_order_id). The view is defined once in
 * modules/orders/sql.ts since issue 39; this migration stays, empty, because databases migrated before record it
 * (Kysely refuses to run when a recorded migration is missing).
 */
export async function up() {}
