import { routeCaller, type RouteInput, type RouteRefs } from '@pfp/api-client';
import type { marketRoutes } from '@pfp/contract';
import { useQuery } from '@tanstack/react-query';
import { baseHttpApi } from './clients';

type Market = typeof marketRoutes;

/** SPEC §7 "Market filter calls". The compiler holds each method and path to the contract's. */
const MARKET_ROUTES: RouteRefs<Market> = {
  exchangeList: { method: 'GET', path: '/api/rpc/exchange_list' },
  productList: { method: 'GET', path: '/api/rpc/product_list' },
  futureList: { method: 'GET', path: '/api/rpc/future_list' },
};

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
        const ids = await routeCaller<Market>(baseHttpApi(), MARKET_ROUTES)(name, { ...query!, options: '1' }, signal);
        return ids.filter((id): id is string => typeof id === 'string');
      } catch (error) {
        if (!signal.aborted) console.error(`${MARKET_ROUTES[name].path} 请求失败`, error);
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
