import { useEffect, useState } from 'react';
import { baseHttpApi } from '../api';

/** Lists change at most when a contract rolls; a minute of reuse spares repeated calls while browsing. */
const STALE_MS = 60_000;
const NONE: readonly string[] = [];

type Params = Record<string, string>;
const cache = new Map<string, { at: number; list: Promise<readonly string[]> }>();

/**
 * SPEC §7 market filter call, narrowed to what has listed options (`options=1`). Failures are
 * only logged (the select stays empty) and not cached, so the next visit asks again.
 */
export function fetchList(path: string, params: Params, now = Date.now()): Promise<readonly string[]> {
  const key = `${path}?${new URLSearchParams(params).toString()}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < STALE_MS) return hit.list;
  const list = baseHttpApi()
    .rpc<{ data?: unknown }>(path, { ...params, options: 1 }, 'GET')
    .then((resp) => (Array.isArray(resp?.data) ? resp.data.filter((id): id is string => typeof id === 'string') : NONE))
    .catch((error: unknown) => {
      cache.delete(key);
      console.error(`${path} 请求失败`, error);
      return NONE;
    });
  cache.set(key, { at: now, list });
  return list;
}

// A plain effect instead of react-query: three GETs do not justify a shared library in the first load.
function useList(path: string, params: Params | null): readonly string[] {
  const key = params ? JSON.stringify(params) : null;
  const [state, setState] = useState<{ key: string | null; list: readonly string[] }>({ key: null, list: NONE });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    void fetchList(path, JSON.parse(key) as Params).then((list) => {
      if (live) setState({ key, list });
    });
    return () => {
      live = false;
    };
  }, [path, key]);
  return state.key === key ? state.list : NONE;
}

export function useMarketLists(exchange: string | null, product: string | null) {
  return {
    exchanges: useList('/api/rpc/exchange_list', {}),
    products: useList('/api/rpc/product_list', exchange ? { exchange_id: exchange } : null),
    futures: useList(
      '/api/rpc/future_list',
      exchange && product ? { exchange_id: exchange, product_id: product } : null,
    ),
  };
}
