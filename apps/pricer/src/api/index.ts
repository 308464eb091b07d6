import { createHttpClient, isHttpError, type HttpClient } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { clearSession, readSession } from '../auth/session';
import type { HistoryFilter, LoginAnswer, OrderRequest, Page, PricerOrder, Snapshot, TradedGroup } from './types';

export type * from './types';

/** The pricer app's one API client: same origin, the stored pricer token, a 401 ends the session. */
export const api: HttpClient = createHttpClient({
  baseUrl: '',
  getToken: () => readSession()?.token,
  onAuthError: () => clearSession('expired'),
});

/**
 * The login and company-name calls. A 401 from pricer-login means wrong credentials, not an
 * expired session, so this client has no auth-error callback and sends no token.
 */
const publicApi: HttpClient = createHttpClient({ baseUrl: '' });

interface Envelope<T> {
  result?: string;
  data?: T;
}

function dataOf<T>(answer: Envelope<T> | undefined): T {
  if (answer?.result !== 'ok' || answer.data === undefined) throw new Error(zh.table.loadError);
  return answer.data;
}

export async function getTenantInfo(tenantId: number): Promise<{ company_name: string }> {
  return dataOf(
    await publicApi.rpc<Envelope<{ company_name: string }>>('/api/pricer/rpc/get-tenant-info', { tenant_id: tenantId }),
  );
}

/** SPEC §7: result 'ok' with the token and user; any other shape is a login response format error. */
export async function login(tenantId: number, username: string, password: string): Promise<LoginAnswer> {
  const answer = await publicApi.rpc<Envelope<LoginAnswer>>('/api/pricer/rpc/pricer-login', {
    tenant_id: tenantId,
    username,
    password,
  });
  const d = answer?.data;
  if (answer?.result !== 'ok' || !d || typeof d.jwt_token !== 'string' || typeof d.user_id !== 'number') {
    throw new Error(zh.pricer.loginFormatError);
  }
  return d;
}

export async function fetchSnapshot(signal?: AbortSignal): Promise<Snapshot> {
  const answer = await api.request<Envelope<Snapshot>>('/api/pricer/view/my-data-snapshot', {
    method: 'POST',
    body: {},
    signal,
  });
  return dataOf(answer);
}

/** The latest orders of one contract (the desk's table), newest first. */
export async function fetchContractOrders(
  contractId: number,
  limit: number,
  signal?: AbortSignal,
): Promise<Page<PricerOrder>> {
  const answer = await api.request<Envelope<Page<PricerOrder>>>('/api/pricer/view/my-orders', {
    method: 'POST',
    body: {
      contract_id: contractId,
      sort_fields: [{ field: 'id', ascending: false }],
      slice_start: 0,
      slice_end: limit,
    },
    signal,
  });
  return dataOf(answer);
}

/** SPEC §7 my-orders: empty values and 'all' are left out. */
export function historyParams(filter: HistoryFilter): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (filter.start_date) params.start_date = filter.start_date;
  if (filter.end_date) params.end_date = filter.end_date;
  if (filter.contract_id && filter.contract_id !== 'all') params.contract_id = Number(filter.contract_id);
  if (filter.status && filter.status !== 'all') params.status = filter.status;
  return params;
}

/** One page of the history table: the table's own params (filter, sort, slice) plus the history filter. */
export async function fetchHistoryPage(
  filter: HistoryFilter,
  tableParams: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Page<PricerOrder>> {
  const answer = await api.request<Envelope<Page<PricerOrder>>>('/api/pricer/view/my-orders', {
    method: 'POST',
    body: { ...tableParams, ...historyParams(filter) },
    signal,
  });
  return dataOf(answer);
}

/**
 * The summary of every order matching the filter, not just one page. volume_traded is a text
 * column (sum refused), so the orders are grouped by it: traded lots = Σ value × count.
 */
export async function fetchHistoryGroups(filter: HistoryFilter, signal?: AbortSignal): Promise<TradedGroup[]> {
  const answer = await api.request<Envelope<Page<TradedGroup>>>('/api/pricer/view/my-orders', {
    method: 'POST',
    body: {
      ...historyParams(filter),
      group_by_fields: ['volume_traded'],
      aggregate_fields: [
        { field: 'id', op: 'count' },
        { field: 'volume_orign', op: 'sum' },
      ],
    },
    signal,
  });
  return dataOf(answer).items;
}

export async function submitOrder(order: OrderRequest): Promise<PricerOrder> {
  const answer = await api.rpc<Envelope<PricerOrder>>('/api/pricer/rpc/submit-order', { ...order });
  // SPEC §7: success when result 'ok' and data present.
  if (answer?.result !== 'ok' || !answer.data) throw new Error(zh.pricer.orderSubmitFailed);
  return answer.data;
}

export async function cancelOrder(orderId: number): Promise<void> {
  const answer = await api.rpc<Envelope<unknown>>('/api/pricer/rpc/cancel-order', { order_id: orderId });
  if (answer?.result !== 'ok') throw new Error(zh.pricer.cancelFailed);
}

/** The server's Chinese error.message when there is one, else the caller's fallback (SPEC §8 toasts). */
export function serverMessage(error: unknown, fallback: string): string {
  return isHttpError(error) && error.serverMessage ? error.serverMessage : fallback;
}
