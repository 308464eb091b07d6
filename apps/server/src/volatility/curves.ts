import { curveKey, MAX_CURVE_ITEMS, OPTION_TYPES, PRICE_TYPES, type CurveItem } from '@pfp/contract';
import { americanImpliedVol, black76ImpliedVol } from '@pfp/quant';
import type { OptionMarket } from '../market/feed';
import type { Quote } from '../market/simExchange';
import { WsError, type ViewSource } from '../ws/registry';

export type OptionType = CurveItem['option_type'];
export type PriceType = CurveItem['price_type'];
export type CurvePoint = [strike: number, iv: number];

export type { OptionMarket };

const YEAR_MS = 365 * 86_400_000;
const MAX_ITEMS = MAX_CURVE_ITEMS;

/** Per update (the `changed` map of one recompute): the patch for each set of wanted curves. */
const sharedPatches = new WeakMap<Map<string, CurvePoint[]>, Map<string, Record<string, unknown> | null>>();

export { curveKey };

function optionPrice(q: Quote | undefined, p: PriceType): number | undefined {
  if (!q) return undefined;
  const v =
    p === 'ask'
      ? q.ask_price1
      : p === 'bid'
        ? q.bid_price1
        : p === 'last'
          ? q.last_price
          : q.bid_price1 && q.ask_price1
            ? (q.bid_price1 + q.ask_price1) / 2
            : null;
  return v && v > 0 ? v : undefined;
}

/** The futures price the options are valued against: the mid when both sides quote, else last. */
function forward(q: Quote | undefined): number | undefined {
  if (!q) return undefined;
  if (q.bid_price1 && q.ask_price1) return (q.bid_price1 + q.ask_price1) / 2;
  return q.last_price > 0 ? q.last_price : undefined;
}

/**
 * The 8 curves of one future's chain: each option's implied vol by strike, European options
 * with Black-76 and American ones with the American model; no point where no σ exists.
 */
export function computeCurves(market: OptionMarket, future: string, rate: number, now: number) {
  const F = forward(market.getQuote(future));
  const curves = new Map<string, CurvePoint[]>();
  for (const o of OPTION_TYPES) for (const p of PRICE_TYPES) curves.set(curveKey(future, o, p), []);
  if (!F) return curves;
  const chain = [...market.optionChain(future)].sort((a, b) => a.strike - b.strike);
  for (const opt of chain) {
    const T = (opt.expiryMs - now) / YEAR_MS;
    if (T <= 0) continue;
    const q = market.getQuote(opt.symbol);
    const isCall = opt.optionType === 'CALL';
    const solve = opt.style === 'A' ? americanImpliedVol : black76ImpliedVol;
    for (const p of PRICE_TYPES) {
      const price = optionPrice(q, p);
      if (price === undefined) continue;
      const iv = solve(price, F, opt.strike, T, rate, isCall);
      if (Number.isFinite(iv) && iv > 0) curves.get(curveKey(future, opt.optionType, p))!.push([opt.strike, iv]);
    }
  }
  return curves;
}

const sameCurve = (a: CurvePoint[] | undefined, b: CurvePoint[]) =>
  !!a && a.length === b.length && a.every((pt, i) => pt[0] === b[i]![0] && pt[1] === b[i]![1]);

interface Chain {
  future: string;
  curves: Map<string, CurvePoint[]>;
  listeners: Set<(changed: Map<string, CurvePoint[]>) => void>;
  release: () => void;
}

/**
 * The `volatility_curves` data source: one computation per chain per tick, shared by every
 * subscriber of that future; each subscriber gets the curves it asked for, and after that only
 * the ones that changed.
 */
export class VolatilityCurves {
  private readonly chains = new Map<string, Chain>();
  /** The future of every quoted symbol of an active chain (the future itself and its options). */
  private readonly symbolToFuture = new Map<string, string>();
  private readonly offTick: () => void;
  computations = 0;

  constructor(
    private readonly market: OptionMarket,
    private readonly opts: {
      rate?: number;
      now?: () => number;
      isFuture: (symbol: string) => boolean;
      public: boolean;
    },
  ) {
    this.offTick = market.onTick((quotes) => this.onTick(quotes));
  }

  private onTick(quotes: readonly Quote[]) {
    if (this.chains.size === 0) return;
    // A chain is recomputed once per tick when its future or any of its options moved.
    const touched = new Set<Chain>();
    for (const q of quotes) {
      const chain = this.chains.get(this.symbolToFuture.get(q.symbol) ?? '');
      if (chain) touched.add(chain);
    }
    for (const chain of touched) this.recompute(chain);
  }

  private recompute(chain: Chain) {
    this.computations++;
    const fresh = computeCurves(this.market, chain.future, this.opts.rate ?? 0.015, (this.opts.now ?? Date.now)());
    const changed = new Map<string, CurvePoint[]>();
    for (const [key, points] of fresh) {
      if (!sameCurve(chain.curves.get(key), points)) changed.set(key, points);
    }
    chain.curves = fresh;
    if (changed.size > 0) for (const l of chain.listeners) l(changed);
  }

  private chain(future: string): Chain {
    let chain = this.chains.get(future);
    if (!chain) {
      const release = this.market.subscribeChains([future]);
      chain = { future, curves: new Map(), listeners: new Set(), release };
      this.chains.set(future, chain);
      this.symbolToFuture.set(future, future);
      for (const o of this.market.optionChain(future)) this.symbolToFuture.set(o.symbol, future);
      this.recompute(chain);
    }
    return chain;
  }

  private drop(chain: Chain, listener: (changed: Map<string, CurvePoint[]>) => void) {
    chain.listeners.delete(listener);
    if (chain.listeners.size === 0) {
      chain.release();
      this.chains.delete(chain.future);
      for (const [symbol, future] of this.symbolToFuture)
        if (future === chain.future) this.symbolToFuture.delete(symbol);
    }
  }

  /** Active chains (for tests and metrics). */
  activeFutures() {
    return [...this.chains.keys()];
  }

  close() {
    this.offTick();
    for (const c of this.chains.values()) c.release();
    this.chains.clear();
  }

  /** The view source registered as `volatility_curves`. */
  get source(): ViewSource {
    return { public: this.opts.public, subscribe: (params, push) => this.subscribe(params, push) };
  }

  private async subscribe(params: Record<string, unknown>, push: (patch: Record<string, unknown>) => void) {
    const keys = parseItems(params.items, this.opts.isFuture);
    const byFuture = new Map<string, Set<string>>();
    for (const k of keys) {
      const set = byFuture.get(k.future) ?? new Set<string>();
      set.add(k.key);
      byFuture.set(k.future, set);
    }
    const patch = (entries: [string, CurvePoint[]][]) =>
      Object.fromEntries(entries.map(([key, curve_data]) => [key, { _key: key, curve_data }]));
    const initial: [string, CurvePoint[]][] = [];
    const subs: [Chain, (changed: Map<string, CurvePoint[]>) => void][] = [];
    for (const [future, wanted] of byFuture) {
      const chain = this.chain(future);
      for (const key of wanted) initial.push([key, chain.curves.get(key) ?? []]);
      const wantedKey = [...wanted].sort().join('|');
      const listener = (changed: Map<string, CurvePoint[]>) => {
        // Subscribers asking for the same curves get the same patch object (serialised once).
        let byWanted = sharedPatches.get(changed);
        if (!byWanted) sharedPatches.set(changed, (byWanted = new Map()));
        let update = byWanted.get(wantedKey);
        if (update === undefined) {
          const mine = [...changed].filter(([key]) => wanted.has(key));
          update = mine.length > 0 ? { patch: patch(mine) } : null;
          byWanted.set(wantedKey, update);
        }
        if (update) push(update);
      };
      chain.listeners.add(listener);
      subs.push([chain, listener]);
    }
    return {
      initial: { patch: patch(initial) },
      close: () => subs.forEach(([c, l]) => this.drop(c, l)),
    };
  }
}

function parseItems(items: unknown, isFuture: (s: string) => boolean) {
  if (!Array.isArray(items) || items.length === 0) throw new WsError('BAD_PARAMS', '参数 items 必须是非空数组');
  if (items.length > MAX_ITEMS) throw new WsError('BAD_PARAMS', `最多订阅 ${MAX_ITEMS} 条曲线`);
  return items.map((raw, i) => {
    const it = (raw ?? {}) as Record<string, unknown>;
    const symbol = typeof it.symbol === 'string' ? it.symbol : '';
    const o = typeof it.option_type === 'string' ? it.option_type.toUpperCase() : '';
    const p = typeof it.price_type === 'string' ? it.price_type.toLowerCase() : '';
    if (!isFuture(symbol))
      throw new WsError('BAD_PARAMS', `items[${i}].symbol 不是有效的期货合约：${symbol || '(空)'}`);
    if (o !== 'CALL' && o !== 'PUT') throw new WsError('BAD_PARAMS', `items[${i}].option_type 必须是 CALL 或 PUT`);
    if (!(PRICE_TYPES as readonly string[]).includes(p))
      throw new WsError('BAD_PARAMS', `items[${i}].price_type 必须是 ask、bid、mid 或 last`);
    return { future: symbol, key: curveKey(symbol, o as OptionType, p as PriceType) };
  });
}
