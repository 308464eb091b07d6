/**
 * The apps' TanStack Query defaults and the hooks more than one app needs. A separate entry
 * (`@pfp/api-client/query`) so the HTTP client itself stays free of React.
 */
import { QueryClient, useMutationState, type MutationKey } from '@tanstack/react-query';
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
