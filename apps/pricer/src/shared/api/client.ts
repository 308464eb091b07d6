import { createHttpClient, downloadFile, routeCaller, UnexpectedAnswerError, type AuthError } from '@pfp/api-client';
import { statementFileName, type StatementRequest } from '@pfp/ui';
import type {
  ConditionalRow,
  Confirmation,
  CreateConditionalInput,
  MyOrdersRequest,
  OrderRow,
  PricerLoginInput,
  PricerLoginResult,
  pricerRoutes,
  SubmitOrderInput,
  ViewPage,
  ViewRequest,
  appRoutes,
} from '@pfp/contract';
import { appPaths, pricerPaths } from '@pfp/contract/paths';
import { zh } from '@pfp/i18n';
import { clearSession, readSession } from '../session/session';

/** SPEC §7 "Customer calls", by the contract's methods and paths. */
type Routes = typeof pricerRoutes;

/** A 401 ends the session: 账户已停用 when the trader deactivated the account, else 认证已过期. */
export const endSession = (err: AuthError) =>
  clearSession(err.serverCode === 'account_disabled' ? 'disabled' : 'expired');

/** Same origin, the stored pricer token; a 401 ends the session. */
const call = routeCaller<Routes>(
  createHttpClient({ baseUrl: '', getToken: () => readSession()?.token, onAuthError: endSession }),
  pricerPaths,
);

/**
 * The login and company-name calls. A 401 from pricer-login means wrong credentials, not an
 * expired session, so this client has no auth-error callback and sends no token.
 */
const publicHttp = createHttpClient({ baseUrl: '' });
const publicCall = routeCaller<Routes>(publicHttp, pricerPaths);

/** The history filter's conditions of my-orders (SPEC §7: empty values and 'all' are left out). */
export type OrderConditions = Pick<MyOrdersRequest, 'start_date' | 'end_date' | 'contract_id' | 'status'>;

/** One group of the history summary: the orders with the same traded volume. */
export interface TradedGroup {
  volume_traded: string | number;
  count_id: number;
  sum_volume_orign: number;
}

// The contract types a view's rows as records (they vary with grouping); each query names its own.
const myOrders = <T>(body: MyOrdersRequest, signal?: AbortSignal) =>
  call('myOrders', body, signal) as Promise<ViewPage<T>>;

export const pricerApi = {
  tenantInfo: (tenantId: number) => publicCall('tenantInfo', { tenant_id: tenantId }),
  /** Whether the demo data is on (GET /api/config): only then is the login prefilled (issue 30). */
  demoOn: () => publicHttp.call<(typeof appRoutes)['config']>(appPaths.config, undefined).then((c) => c?.demo === true),

  /** SPEC §7: result 'ok' with the token and user; any other shape is a login response format error. */
  async login(input: PricerLoginInput): Promise<PricerLoginResult> {
    const answer = await publicCall('login', input).catch((err: unknown) => {
      throw err instanceof UnexpectedAnswerError ? new Error(zh.pricer.loginFormatError) : err;
    });
    if (typeof answer.jwt_token !== 'string' || typeof answer.user_id !== 'number') {
      throw new Error(zh.pricer.loginFormatError);
    }
    return answer;
  },

  snapshot: (signal?: AbortSignal) => call('snapshot', undefined, signal),
  /** The customer's account and latest funds entries (docs/margin.md). */
  myFunds: (signal?: AbortSignal) => call('myFunds', undefined, signal),
  /** 均价点价 schedule and the contract's history with its 转月确认单 (issue 32). */
  contractSchedule: (contractId: number, signal?: AbortSignal) =>
    call('contractSchedule', { contract_id: contractId }, signal),
  contractHistory: (contractId: number, signal?: AbortSignal) =>
    call('contractHistory', { contract_id: contractId }, signal),
  /** The customer's notifications, newest first, and the unread count (docs/notifications.md). */
  notifications: (signal?: AbortSignal) => call('notifications', { limit: 50 }, signal),
  markNotificationsRead: (input: { ids?: number[]; all?: boolean }) => call('markNotificationsRead', input),

  /** The latest orders of one contract (the desk's table), newest first. */
  contractOrders: (contractId: number, limit: number, signal?: AbortSignal) =>
    myOrders<OrderRow>(
      { contract_id: contractId, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ),

  /** One page of the history table: the table's params (filter, sort, slice) and the history conditions. */
  historyPage: (conditions: OrderConditions, params: ViewRequest, signal?: AbortSignal) =>
    myOrders<OrderRow>({ ...params, ...conditions }, signal),

  /**
   * The summary of every order matching the conditions, not just one page. volume_traded is a
   * text column (sum refused), so the orders are grouped by it: traded lots = Σ value × count.
   */
  historyGroups: (conditions: OrderConditions, signal?: AbortSignal) =>
    myOrders<TradedGroup>(
      {
        ...conditions,
        group_by_fields: ['volume_traded'],
        aggregate_fields: [
          { field: 'id', op: 'count' },
          { field: 'volume_orign', op: 'sum' },
        ],
      },
      signal,
    ).then((page) => page.items),

  /** SPEC §7: success when result 'ok' and data present. */
  submitOrder: (order: SubmitOrderInput) => call('submitOrder', order),
  cancelOrder: (orderId: number) => call('cancelOrder', { order_id: orderId }),

  /** Conditional orders (docs/conditional-orders.md): the contract's latest, newest first. */
  contractConditionals: (contractId: number, limit: number, signal?: AbortSignal) =>
    call(
      'myConditional',
      { contract_id: contractId, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ) as Promise<ViewPage<ConditionalRow>>,
  /** Every contract's 条件单, newest first (issue 29). */
  myConditionals: (limit: number, signal?: AbortSignal) =>
    call(
      'myConditional',
      { sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ) as Promise<ViewPage<ConditionalRow>>,
  createConditional: (input: CreateConditionalInput) => call('createConditional', input),
  cancelConditional: (id: number) => call('cancelConditional', { id }),
};

/** A customer's price confirmation of one of their orders (docs/fixing.md). */
export function fetchConfirmation(orderId: number): Promise<Confirmation> {
  return call('confirmation', { order_id: orderId });
}

/** The customer acknowledges their confirmation (确认无误, issue 29); answers it with acknowledged_at. */
export function acknowledgeConfirmation(orderId: number): Promise<Confirmation> {
  return call('acknowledgeConfirmation', { order_id: orderId });
}

/** Downloads the customer's own statement; resolves with the file's name. */
export function exportFixings(q: StatementRequest): Promise<string> {
  const { pricer_id: _ignored, ...query } = q;
  return downloadFile({
    path: pricerPaths.exportFixings.path,
    query,
    getToken: () => readSession()?.token,
    onAuthError: endSession,
    fallbackName: statementFileName(q),
  });
}
