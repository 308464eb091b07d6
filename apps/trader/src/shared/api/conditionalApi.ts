import type { HttpClient } from '@pfp/api-client';
import type { ConditionalOrder, ConditionalRow, ConditionalViewRequest, ViewPage } from '@pfp/contract';

const BASE = '/api/trader';

const dataOf = <T>(answer: unknown): T =>
  typeof answer === 'object' && answer !== null && 'data' in answer
    ? ((answer as { data: T }).data as T)
    : (answer as T);

/** The calls of conditional orders (docs/conditional-orders.md; the contract's routes). */
export function conditionalApi(http: HttpClient) {
  return {
    conditionalOrders: async (params: ConditionalViewRequest, signal?: AbortSignal) =>
      dataOf<ViewPage<ConditionalRow>>(
        await http.request(`${BASE}/view/conditional-orders`, {
          method: 'POST',
          body: params,
          ...(signal ? { signal } : {}),
        }),
      ),
    /** How many wait (the dashboard's count): an empty slice and its total. */
    waitingConditionals: async () =>
      dataOf<ViewPage<ConditionalRow>>(
        await http.request(`${BASE}/view/conditional-orders`, {
          method: 'POST',
          body: { status: 'WAITING', slice_start: 0, slice_end: 0 },
        }),
      ).total_count,
    cancelConditional: async (id: number) =>
      dataOf<ConditionalOrder>(
        await http.request(`${BASE}/rpc/cancel-conditional-order`, { method: 'POST', body: { id } }),
      ),
  };
}
