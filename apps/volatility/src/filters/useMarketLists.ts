import { useQuery } from '@tanstack/react-query';
import { baseHttpApi } from '../api';

type ListResp = { data?: string[] };

/** SPEC §7 market filter calls; failures are only logged (the select stays empty). */
function useList(key: string, path: string, params: Record<string, string> | null) {
  return useQuery({
    queryKey: [key, params],
    enabled: params !== null,
    queryFn: async () => {
      try {
        const resp = await baseHttpApi.rpc<ListResp>(path, params ?? {}, 'GET');
        return resp.data ?? [];
      } catch (error) {
        console.error(`${path} failed`, error);
        return [];
      }
    },
    staleTime: 60_000,
  });
}

export function useMarketLists(exchange: string | null, product: string | null) {
  const exchanges = useList('exchanges', '/api/rpc/exchange_list', {});
  const products = useList('products', '/api/rpc/product_list', exchange ? { exchange_id: exchange } : null);
  const futures = useList(
    'futures',
    '/api/rpc/future_list',
    exchange && product ? { exchange_id: exchange, product_id: product } : null,
  );
  return { exchanges: exchanges.data ?? [], products: products.data ?? [], futures: futures.data ?? [] };
}
