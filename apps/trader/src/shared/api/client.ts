import { isHttpError, routeCaller, type HttpClient } from '@pfp/api-client';
import type {
  AggregateField,
  ContractRow,
  InstrumentRow,
  OrderRow,
  PricerUserRow,
  ProductRow,
  ProfileInput,
  TraderProfile,
  traderRoutes,
  UpdateContractStatusInput,
  UpdatePricerStatusInput,
  UpdatePricerProfileInput,
  CreateContractInput,
  CreateCustomerInput,
  ViewPage,
  ViewRequest,
} from '@pfp/contract';
import { traderPaths } from '@pfp/contract/paths';

import { conditionalApi } from './conditionalApi';
import { fixingApi, type FileAccess } from './fixingApi';
import { marginApi } from './marginApi';
import { lifecycleApi } from './lifecycle';
import { notificationsApi } from './notificationsApi';

/** SPEC §7 "Trader calls", by the contract's methods and paths. */
type Routes = typeof traderRoutes;

/** A call of the trader's routes by name; unwraps the `{ result: 'ok', data }` envelope. */
export type TraderCall = ReturnType<typeof routeCaller<Routes>>;

/** One row of a view grouped by status (aggregate keys are `${op}_${field}`). */
export type StatusGroup = { status: string } & Record<string, number | string | null>;

type TableView = 'orders' | 'contracts' | 'users';

/** The trader's calls; the hooks in queries.ts and mutations.ts are their only users. */
export function createTraderApi(http: HttpClient, files?: FileAccess) {
  const call: TraderCall = routeCaller<Routes>(http, traderPaths);
  // The contract types a view's rows as records (they vary with grouping); each view's row type is its own.
  const page = <T>(view: TableView, params: ViewRequest, signal?: AbortSignal) =>
    call(view, params, signal) as Promise<ViewPage<T>>;
  const byStatus = (view: TableView, aggregates: AggregateField[]) =>
    page<StatusGroup>(view, { group_by_fields: ['status'], aggregate_fields: aggregates }).then((p) => p.items);

  return {
    /** The trader's company profile; null when none is saved yet (404 is not an error). */
    async mySelf(): Promise<TraderProfile | null> {
      try {
        return await call('mySelf', undefined);
      } catch (err) {
        if (isHttpError(err) && err.status === 404) return null;
        throw err;
      }
    },
    tqsdkStatus: () => call('tqsdkStatus', undefined),
    saveProfile: (input: ProfileInput) => call('saveProfile', input),

    orders: (params: ViewRequest, signal?: AbortSignal) => page<OrderRow>('orders', params, signal),
    orderStats: () =>
      byStatus('orders', [
        { field: 'id', op: 'count' },
        // 累计成交金额 in 元: price × lots × multiplier (issue 29), not the SPEC's trade_amount (price × lots).
        { field: 'turnover', op: 'sum' },
      ]),
    cancelOrder: (orderId: number) => call('cancelOrder', { order_id: orderId }),

    contracts: (params: ViewRequest, signal?: AbortSignal) => page<ContractRow>('contracts', params, signal),
    contractStats: () =>
      byStatus('contracts', [
        { field: 'id', op: 'count' },
        { field: 'total_quantity', op: 'sum' },
        { field: 'executed_quantity', op: 'sum' },
      ]),
    createContract: (input: CreateContractInput) => call('createContract', input),
    updateContractStatus: (input: UpdateContractStatusInput) => call('updateContractStatus', input),
    /** What a pause would stop (issue 30): working orders and waiting 条件单. */
    contractPausePreview: (contractId: number) => call('contractPausePreview', { contract_id: contractId }),

    users: (params: ViewRequest, signal?: AbortSignal) => page<PricerUserRow>('users', params, signal),
    userStats: () => byStatus('users', [{ field: 'id', op: 'count' }]),
    /** Every customer, for the contract dialog's picker. */
    allUsers: () =>
      page<PricerUserRow>('users', { sort_fields: [{ field: 'username', ascending: true }] }).then((p) => p.items),
    createPricer: (input: CreateCustomerInput) => call('createPricerUser', input),
    resetPricerPassword: (userId: number, newPassword: string) =>
      call('resetPricerPassword', { user_id: userId, new_password: newPassword }),
    updatePricerStatus: (input: UpdatePricerStatusInput) => call('updatePricerStatus', input),
    /** What a 停用 would stop (issue 30). */
    pricerDeactivatePreview: (userId: number) => call('pricerDeactivatePreview', { user_id: userId }),
    /** Forget the customer's failed logins (issue 30). */
    unlockPricer: (userId: number) => call('unlockPricer', { user_id: userId }),
    /** 客户全称, 联系人, 手机号 and the confirm sheet (issue 29). */
    updatePricerProfile: (input: UpdatePricerProfileInput) => call('updatePricerProfile', input),

    // The contract's product picker: commodity futures only (no index or bond futures, issue 29).
    products: () => call('products', { filter: 'commodity is true' }).then((p) => (p as ViewPage<ProductRow>).items),
    instruments: (productName: string) =>
      call('instruments', { product_name: productName }).then((p) => (p as ViewPage<InstrumentRow>).items),

    ...fixingApi(call, files),
    ...conditionalApi(call),
    ...marginApi(call),
    ...lifecycleApi(call),
    ...notificationsApi(call),
  };
}

export type TraderApi = ReturnType<typeof createTraderApi>;
