/** The exchange → product → future selection, kept in the URL as ?exchange=&product=&future=. */
export interface MarketSelection {
  exchange: string | null;
  product: string | null;
  future: string | null;
}

const PARAMS = ['exchange', 'product', 'future'] as const;

/** 'SHFE.cu2702' → SHFE and cu; 'CZCE.SR605' → CZCE and SR; anything else → null. */
export function splitFuture(future: string): { exchange: string; product: string } | null {
  const m = /^([A-Za-z]+)\.([A-Za-z]+)\d+$/.exec(future);
  return m ? { exchange: m[1]!, product: m[2]! } : null;
}

/**
 * Reads the preselection from the query. A future names its own exchange and product, so
 * `?future=SHFE.cu2702` alone is enough, and a future wins over a contradicting exchange/product.
 */
export function selectionFromSearch(search: URLSearchParams): MarketSelection {
  const value = (k: string) => search.get(k)?.trim() || null;
  const future = value('future');
  const owner = future ? splitFuture(future) : null;
  return {
    exchange: owner?.exchange ?? value('exchange'),
    product: owner?.product ?? value('product'),
    future,
  };
}

/** The query with the selection written in; other parameters (e.g. theme) are kept. */
export function withSelection(search: URLSearchParams, selection: MarketSelection): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const k of PARAMS) {
    const v = selection[k];
    if (v) next.set(k, v);
    else next.delete(k);
  }
  return next;
}
