import type { myOrdersRequest, TraderViewName } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../platform/db/schema';
import type { ViewCache } from '../platform/views/cache';
import { runView, type ViewDef, type ViewResult } from '../platform/views/engine';

/** The database views of the two consoles: what each lists, and the rows each caller may see. */

type Scope = Record<string, string | number>;
interface ScopedView {
  view: ViewDef;
  /** The rows this caller may see, from who they are and the view's own params. */
  scope: (body: Record<string, unknown>, who: { tenantId: () => Promise<number> }) => Promise<Scope>;
}

export const ORDER_COLUMNS: ViewDef['columns'] = {
  id: { type: 'number' },
  contract_id: { type: 'number' },
  pricer_id: { type: 'number' },
  pricer_name: { type: 'text' },
  contract_name: { type: 'text' },
  instrument_id: { type: 'text' },
  direction: { type: 'text' },
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
};

export const ordersView: ViewDef = {
  name: 'orders',
  relation: 'v_orders',
  columns: ORDER_COLUMNS,
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['pricer_name', 'contract_name', 'instrument_id', 'last_msg'],
};

export const contractsView: ViewDef = {
  name: 'contracts',
  relation: 'v_contracts',
  columns: {
    id: { type: 'number' },
    name: { type: 'text' },
    pricer_id: { type: 'number' },
    pricer_name: { type: 'text' },
    product_name: { type: 'text' },
    instrument_id: { type: 'text' },
    direction: { type: 'text' },
    total_quantity: { type: 'number' },
    remaining_quantity: { type: 'number' },
    executed_quantity: { type: 'number' },
    frozen_quantity: { type: 'number' },
    avg_price: { type: 'number' },
    status: { type: 'text' },
    created_at: { type: 'date' },
    basis: { type: 'number' },
    fixing_deadline: { type: 'text' },
    avg_fixed_price: { type: 'number' },
    multiplier: { type: 'number' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['name', 'pricer_name', 'product_name', 'instrument_id'],
};

const tenantScoped = (view: ViewDef): ScopedView => ({
  view,
  scope: async (_body, who) => ({ tenant_id: await who.tenantId() }),
});

/** The trader's database views; each is limited to the trader's tenant (or the shared catalogue). */
const TRADER_VIEWS: Record<TraderViewName, ScopedView> = {
  orders: tenantScoped(ordersView),
  contracts: tenantScoped(contractsView),
  users: tenantScoped({
    name: 'users',
    relation: 'pricer_users',
    columns: {
      id: { type: 'number' },
      username: { type: 'text' },
      status: { type: 'text' },
      phone: { type: 'text' },
      created_at: { type: 'date' },
      last_login_at: { type: 'date' },
    },
    defaultSort: [{ field: 'id', ascending: false }],
    searchColumns: ['username', 'phone'],
  }),
  products: {
    view: {
      name: 'products',
      relation: 'products',
      columns: {
        id: { type: 'number' },
        name: { type: 'text' },
        exchange_id: { type: 'text' },
        product_id: { type: 'text' },
      },
      defaultSort: [{ field: 'id', ascending: true }],
      searchColumns: ['name', 'product_id'],
    },
    scope: async (_body, who) => (await who.tenantId(), {}),
  },
  instruments: {
    view: {
      name: 'instruments',
      relation: 'v_instruments',
      columns: {
        symbol: { type: 'text' },
        name: { type: 'text' },
        product_name: { type: 'text' },
        exchange_id: { type: 'text' },
        price_tick: { type: 'number' },
        volume_multiple: { type: 'number' },
      },
      defaultSort: [{ field: 'symbol', ascending: true }],
      searchColumns: ['symbol', 'name'],
    },
    scope: async (body, who) => {
      await who.tenantId();
      return { product_name: String(body.product_name) };
    },
  },
};

/**
 * A trader's view (SPEC §7 trader views), limited to the trader's tenant (`tenantId` answers it or throws 403).
 * `body` is the checked request.
 */
export async function traderView(
  db: Kysely<DB>,
  tenantId: () => Promise<number>,
  name: TraderViewName,
  body: Record<string, unknown>,
  cache?: ViewCache,
): Promise<ViewResult> {
  const def = TRADER_VIEWS[name];
  const scope = await def.scope(body, { tenantId });
  return runView(db, def.view, body, scope, cache ? { cache } : {});
}

/** The customer's own orders (SPEC §7 my-orders), with the history filter. */
export async function myOrders(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  body: z.output<typeof myOrdersRequest>,
): Promise<ViewResult> {
  const scope: Scope = { tenant_id: who.tenantId, pricer_id: who.pricerId };
  if (body.contract_id) scope.contract_id = body.contract_id;
  if (body.status) scope.status = body.status;
  return runView(db, ordersView, body, scope, {
    ...(body.start_date ? { createdFrom: body.start_date } : {}),
    ...(body.end_date ? { createdTo: body.end_date } : {}),
  });
}
