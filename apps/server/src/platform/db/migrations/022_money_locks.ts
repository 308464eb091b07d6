import { sql, type Kysely } from 'kysely';

/**
 * Issue 40 (docs/margin.md): the money path's holes a fault and abuse probe found.
 *
 * - conditional_orders.margin_price: the futures price a waiting 条件单 holds margin at — its order
 *   price, or for a market 条件单 the worse (higher) of its trigger price and the live price when it
 *   was created (a trigger of 1 元 held 1 元 a lot and then fixed at the market). Null for rows from
 *   before: read as the order price, or the trigger price.
 * - v_margin_sums: margin per holding never below 0 — a basis below −(futures price) held negative
 *   margin and raised available (greatest(price + basis, 0) per row; open market orders per contract,
 *   whose lots share one basis, floored in margin_check at the live price); waiting 条件单 at margin_price.
 * - margin_check(…, p_conditional): the same check, with
 *   · the lock order of every path that touches a customer's contract, account and data version
 *     (docs/margin.md "Lock order"): contract → version → account. The version row (migration 009)
 *     is otherwise raised by the statement triggers only at the end of the fixing's statement, after
 *     the account was locked here, while a checked fixing, a 转月 or a 延期 with a fee raises it before
 *     it locks the account: two such transactions of one customer deadlocked. So the check raises the
 *     customer's version itself before it locks the account (the version only has to grow);
 *   · the margin the fixing needs floored at 0 and the held market orders floored per contract;
 *   · p_conditional: a 条件单 that fires is checked without the margin it held while waiting (its
 *     lots become the fixing checked).
 */
export async function up(db: Kysely<unknown>) {
  // The view v_margin_sums and the function margin_check of this issue are defined once, in
  // modules/margin/sql.ts (applied after the migrations); this migration holds the column only.
  await sql`
    alter table conditional_orders add column margin_price numeric(18, 4);
    update conditional_orders set margin_price = case when order_price > 0 then order_price else trigger_price end;
  `.execute(db);
}
