import type { myOrdersRequest } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { runView, type ViewDef, type ViewResult } from '../../platform/views/engine';

/** The orders as the consoles list them: the trader's order stream, the customer's own orders. */

/** What every list of orders (and of conditions) starts with: the row, its contract and customer, the future. */
export const ORDER_PARTY_COLUMNS = {
  id: { type: 'number' },
  contract_id: { type: 'number' },
  pricer_id: { type: 'number' },
  pricer_name: { type: 'text' },
  contract_name: { type: 'text' },
  instrument_id: { type: 'text' },
  direction: { type: 'text' },
} satisfies ViewDef['columns'];

/** What the free-text search of an order list looks in. */
export const ORDER_SEARCH_COLUMNS = ['pricer_name', 'contract_name', 'instrument_id', 'last_msg'];

export const ORDER_COLUMNS: ViewDef['columns'] = {
  ...ORDER_PARTY_COLUMNS,
  volume_orign: { type: 'number' },
  volume_traded: { type: 'text' },
  limit_price: { type: 'number' },
  trade_price: { type: 'number' },
  trade_amount: { type: 'number' },
  status: { type: 'text' },
  status_str: { type: 'text' },
  last_msg: { type: 'text' },
  created_at: { type: 'date' },
  basis: { type: 'number' },
  fixed_price: { type: 'number' },
  multiplier: { type: 'number' },
  fixed_amount: { type: 'number' },
  acknowledged_at: { type: 'date' },
  turnover: { type: 'number' },
  unit: { type: 'text' },
  conditional_order_id: { type: 'number' },
};

export const ordersView: ViewDef = {
  name: 'orders',
  relation: 'v_orders',
  columns: ORDER_COLUMNS,
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ORDER_SEARCH_COLUMNS,
};

/** The customer's own orders (SPEC §7 my-orders), with the history filter. */
export async function myOrders(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  body: z.output<typeof myOrdersRequest>,
): Promise<ViewResult> {
  return runView(db, ordersView, body, customerScope(who, body), {
    ...(body.start_date ? { createdFrom: body.start_date } : {}),
    ...(body.end_date ? { createdTo: body.end_date } : {}),
  });
}

/** A customer's own rows, optionally of one contract and one status. */
export function customerScope(
  who: { tenantId: number; pricerId: number },
  body: { contract_id?: number | undefined; status?: string | undefined },
): Record<string, string | number> {
  const scope: Record<string, string | number> = { tenant_id: who.tenantId, pricer_id: who.pricerId };
  if (body.contract_id) scope.contract_id = body.contract_id;
  if (body.status) scope.status = body.status;
  return scope;
}
