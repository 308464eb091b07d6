import type { ConditionalRow, ConditionalViewRequest, ViewPage } from '@pfp/contract';
import type { TraderCall } from './client';

/** The calls of conditional orders (docs/conditional-orders.md; the contract's routes). */
export function conditionalApi(call: TraderCall) {
  // The contract types a view's rows as records; these are ConditionalRows.
  const conditionalOrders = (params: ConditionalViewRequest, signal?: AbortSignal) =>
    call('conditionalOrders', params, signal) as Promise<ViewPage<ConditionalRow>>;
  return {
    conditionalOrders,
    /** How many wait (the dashboard's count): an empty slice and its total. */
    waitingConditionals: async () =>
      (await conditionalOrders({ status: 'WAITING', slice_start: 0, slice_end: 0 })).total_count,
    cancelConditional: (id: number) => call('cancelConditional', { id }),
  };
}
