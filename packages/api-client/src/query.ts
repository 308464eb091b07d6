/**
 * The apps' TanStack Query defaults and the hooks more than one app needs. A separate entry
 * (`@pfp/api-client/query`) so the HTTP client itself stays free of React.
 */
import { QueryClient, useMutationState, type MutationKey, type QueryKey } from '@tanstack/react-query';
import { isHttpError } from './errors';

/** A 4xx (401 included) will not change on a retry; a network or server error gets one more try. */
export function retryOnce(failureCount: number, error: unknown): boolean {
  if (isHttpError(error) && error.status < 500) return false;
  return failureCount < 1;
}

/** Each remote owns one client (its cache is its own business); polling is explicit, per query. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: retryOnce, refetchOnWindowFocus: false },
    },
  });
}

/**
 * The variables of the mutations under `mutationKey` still running, e.g. the ids of the orders
 * being cancelled, so each row shows its own busy state while several run at once.
 */
export function usePendingVariables<TVariables>(mutationKey: MutationKey): TVariables[] {
  return useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => mutation.state.variables as TVariables,
  });
}

/**
 * Reads the queries under `queryKey` again because the data changed on the server (a live push),
 * never answering with a read that went out before the change. A plain invalidation does not
 * guarantee it: while a query's first load is in flight, TanStack Query joins that load instead of
 * reading again, and its answer may predate the change (docs/live.md). So a read under way is
 * cancelled first.
 */
export async function readAgain(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}

const pushing = new WeakMap<QueryClient, Map<string, Promise<void>>>();

/**
 * Puts data a live push carried into the query under `queryKey` (exact), in arrival order, never overwritten by a
 * read that went out before the push: a read under way is cancelled first (as in readAgain, docs/live.md), and the
 * cancellation's revert happens before the pushed data is set.
 */
export function setPushed<T>(client: QueryClient, queryKey: QueryKey, data: T): Promise<void> {
  let byKey = pushing.get(client);
  if (!byKey) pushing.set(client, (byKey = new Map()));
  const hash = JSON.stringify(queryKey);
  const next = (byKey.get(hash) ?? Promise.resolve()).then(async () => {
    await client.cancelQueries({ queryKey, exact: true });
    client.setQueryData<T>(queryKey, data);
  });
  byKey.set(hash, next);
  void next.finally(() => {
    if (byKey.get(hash) === next) byKey.delete(hash);
  });
  return next;
}
