import { isHttpError, readItems, type HttpClient } from '@pfp/api-client';
import type { ServerTableParams } from '@pfp/data-table';
import type {
  Contract,
  ContractStatus,
  CreateContractInput,
  CreatePricerInput,
  Instrument,
  Order,
  Page,
  PricerUser,
  Product,
  ProfileInput,
  StatusGroup,
  TqsdkStatus,
  TraderProfile,
} from './types';

const BASE = '/api/trader';

type Envelope<T> = { result?: string; data?: T };

function dataOf<T>(answer: unknown): T {
  // SPEC §3: "the response may be wrapped in a data field".
  if (typeof answer === 'object' && answer !== null && 'data' in answer) return (answer as Envelope<T>).data as T;
  return answer as T;
}

function isProfile(value: unknown): value is TraderProfile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.tenant_id === 'number' && typeof v.company_name === 'string';
}

/** The trader API of SPEC §7 "Trader calls". */
export function createTraderApi(http: HttpClient) {
  const table =
    <T>(view: string) =>
    (params: ServerTableParams, signal?: AbortSignal): Promise<Page<T>> =>
      http
        .request(`${BASE}/view/${view}`, { method: 'POST', body: params, ...(signal ? { signal } : {}) })
        .then((answer) => readItems<T>(answer));

  const groupedByStatus = (view: string, aggregates: { field: string; op: 'count' | 'sum' }[]) =>
    http
      .dbView(`${BASE}/view/${view}`, { pageSize: 0, groupByFields: ['status'], aggregateFields: aggregates })
      .then((answer) => readItems<StatusGroup>(answer).items);

  return {
    /** The trader's company profile; null when none is saved yet (404 is not an error). */
    async mySelf(): Promise<TraderProfile | null> {
      try {
        const profile = dataOf<unknown>(await http.view(`${BASE}/view/my-self`));
        if (!isProfile(profile)) throw new Error('my-self: unexpected answer');
        return profile;
      } catch (err) {
        if (isHttpError(err) && err.status === 404) return null;
        throw err;
      }
    },

    async tqsdkStatus(): Promise<TqsdkStatus> {
      const data = dataOf<Partial<TqsdkStatus>>(await http.rpc(`${BASE}/view/tqsdk-status`, undefined, 'GET'));
      const status = typeof data?.status === 'string' ? data.status : 'error';
      return {
        status,
        connected: status === 'ok' || status === 'connected',
        ...(typeof data?.message === 'string' ? { message: data.message } : {}),
      };
    },

    saveProfile: (input: ProfileInput) => http.rpc(`${BASE}/rpc/trader-profile`, { ...input }),

    orders: table<Order>('orders'),
    orderStats: () =>
      groupedByStatus('orders', [
        { field: 'id', op: 'count' },
        { field: 'trade_amount', op: 'sum' },
      ]),
    cancelOrder: (orderId: number) => http.rpc(`${BASE}/rpc/cancel-order`, { order_id: orderId }),

    contracts: table<Contract>('contracts'),
    contractStats: () =>
      groupedByStatus('contracts', [
        { field: 'id', op: 'count' },
        { field: 'total_quantity', op: 'sum' },
        { field: 'executed_quantity', op: 'sum' },
      ]),
    createContract: (input: CreateContractInput) => http.rpc(`${BASE}/rpc/create-contract`, { ...input }),
    updateContractStatus: (contractId: number, status: ContractStatus) =>
      http.rpc(`${BASE}/rpc/update-contract-status`, { contract_id: contractId, new_status: status }),

    users: table<PricerUser>('users'),
    userStats: () => groupedByStatus('users', [{ field: 'id', op: 'count' }]),
    /** Every customer, for the contract dialog's picker. */
    allUsers: () =>
      http
        .dbView(`${BASE}/view/users`, { pageSize: 0, sortFields: [{ field: 'username', ascending: true }] })
        .then((answer) => readItems<Pick<PricerUser, 'id' | 'username'>>(answer).items),
    createPricer: (input: CreatePricerInput) => http.rpc(`${BASE}/rpc/create-pricer-user`, { ...input }),
    resetPricerPassword: (userId: number, newPassword: string) =>
      http.rpc(`${BASE}/rpc/reset-pricer-password`, { user_id: userId, new_password: newPassword }),

    products: () =>
      http.dbView(`${BASE}/view/products`, { pageSize: 0 }).then((answer) => readItems<Product>(answer).items),
    instruments: (productName: string) =>
      http
        .dbView(`${BASE}/view/instruments`, { pageSize: 0, product_name: productName })
        .then((answer) => readItems<Instrument>(answer).items),
  };
}

export type TraderApi = ReturnType<typeof createTraderApi>;
