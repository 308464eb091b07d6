import type { conditionalViewRequest, myConditionalRequest } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { runView, type ViewDef, type ViewResult } from '../../platform/views/engine';
import { customerScope, ORDER_PARTY_COLUMNS, ORDER_SEARCH_COLUMNS } from '../orders/views';

/** The conditions as the consoles list them: the trader's every one, the customer's own. */

export const conditionalView: ViewDef = {
  name: 'conditional-orders',
  relation: 'v_conditional_orders',
  columns: {
    ...ORDER_PARTY_COLUMNS,
    quantity: { type: 'number' },
    trigger_op: { type: 'text' },
    trigger_price: { type: 'number' },
    order_price: { type: 'number' },
    expires_at: { type: 'date' },
    status: { type: 'text' },
    status_str: { type: 'text' },
    order_id: { type: 'number' },
    trigger_last_price: { type: 'number' },
    triggered_at: { type: 'date' },
    last_msg: { type: 'text' },
    created_at: { type: 'date' },
    updated_at: { type: 'date' },
    order_status: { type: 'text' },
    order_volume_traded: { type: 'number' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ORDER_SEARCH_COLUMNS,
};

/** The customer's own conditions, optionally of one contract and one status. */
export function myConditionals(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  body: z.output<typeof myConditionalRequest>,
): Promise<ViewResult> {
  return runView(db, conditionalView, body, customerScope(who, body));
}

/** Every condition of the trader's tenant (filter, sort, slices of the views engine). */
export function tenantConditionals(
  db: Kysely<DB>,
  tenantId: number,
  body: z.output<typeof conditionalViewRequest>,
): Promise<ViewResult> {
  const scope: Record<string, string | number> = { tenant_id: tenantId };
  if (body.status) scope.status = body.status;
  return runView(db, conditionalView, body, scope);
}
