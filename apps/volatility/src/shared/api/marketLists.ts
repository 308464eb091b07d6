import { routeCaller, type RouteInput } from '@pfp/api-client';
import type { marketRoutes } from '@pfp/contract';
import { marketPaths } from '@pfp/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { baseHttpApi } from './clients';

/** SPEC §7 "Market filter calls", by the contract's methods and paths. */
type Market = Pick<typeof marketRoutes, 'exchangeList' | 'productList' | 'futureList'>;

/** Lists change at most when a contract rolls; a minute of reuse spares repeated calls while browsing. */
const STALE_MS = 60_000;
const NONE: readonly string[] = [];

/**
 * One market list, narrowed to what has listed options (`options=1`). A failure is only logged
 * (SPEC §8) and the select stays empty; it is not cached, so the next visit asks again.
 */
function useList<K extends keyof Market & string>(name: K, query: RouteInput<Market[K]> | null): readonly string[] {
  const list = useQuery({
    queryKey: ['market', name, query],
    queryFn: async ({ signal }) => {
      try {
        const ids = await routeCaller<Market>(baseHttpApi(), marketPaths)(name, { ...query!, options: '1' }, signal);
        return ids.filter((id): id is string => typeof id === 'string');
      } catch (error) {
        if (!signal.aborted) console.error(`${marketPaths[name].path} 请求失败`, error);
        throw error;
      }
    },
    enabled: query !== null,
    staleTime: STALE_MS,
  });
  return list.data ?? NONE;
}

/** The cascading lists of the top bar: exchanges, then the exchange's products, then its futures. */
export function useMarketLists(exchange: string | null, product: string | null) {
  return {
    exchanges: useList('exchangeList', {}),
    products: useList('productList', exchange ? { exchange_id: exchange } : null),
    futures: useList('futureList', exchange && product ? { exchange_id: exchange, product_id: product } : null),
  };
}
