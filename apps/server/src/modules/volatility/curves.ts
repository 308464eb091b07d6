/**
 * The `volatility_curves` data source (ARCHITECTURE §5): per future, the 8 curves of its option
 * chain. One computation per chain per tick, shared by every subscriber of that future, done by the
 * curve engine (worker threads by default); this side only routes ticks to it and fans its results
 * out. Each subscriber gets the curves it asked for, then only the ones that changed; every entry
 * carries `tick_time`, the server time (epoch ms) of the tick it was computed from.
 */
import { MAX_CURVE_ITEMS } from '@pfp/contract';
import type { OptionMarket } from '../../market/feed';
import type { Quote } from '../../platform/quote';
import { WsError, type ViewSource } from '../../platform/ws/registry';
import { curveKey, PRICE_TYPES, type CurvePoint, type OptionType, type PriceType } from './chainCurves';
import type { ChainHandle, CurveEngine } from './curveEngine';

export { curveKey, type CurvePoint, type OptionType, type PriceType } from './chainCurves';
export type { OptionMarket } from '../../market/feed';

const MAX_ITEMS = MAX_CURVE_ITEMS;

/** Per update: the patch for each set of wanted curves (subscribers asking the same share one object). */
type Update = { changed: Map<string, CurvePoint[]>; at: number };
const sharedPatches = new WeakMap<Update, Map<string, Record<string, unknown> | null>>();

interface Chain {
  future: string;
  /** The curves as last computed (with the [strike, 0] of strikes that lost their point). */
  curves: Map<string, CurvePoint[]>;
  at: number;
  listeners: Set<(update: Update) => void>;
  /** Settles once the first computation is in. */
  ready: Promise<void>;
  handle?: ChainHandle;
  release: () => void;
}

const patchOf = (entries: [string, CurvePoint[]][], at: number) =>
  Object.fromEntries(entries.map(([key, curve_data]) => [key, { _key: key, curve_data, tick_time: at }]));

export class VolatilityCurves {
  private readonly chains = new Map<string, Chain>();
  /** The future of every quoted symbol of an active chain (the future itself and its options). */
  private readonly symbolToFuture = new Map<string, string>();
  private readonly offTick: () => void;

  constructor(
    private readonly market: OptionMarket,
    private readonly engine: CurveEngine,
    private readonly opts: {
      rate?: number;
      /** The clock of the initial computations (default: the wall clock); ticks bring their own time. */
      now?: () => number;
      isFuture: (symbol: string) => boolean;
      public: boolean;
      /** Curves one subscription may ask for (WS_MAX_CURVES); the contract's maximum by default. */
      maxItems?: number;
    },
  ) {
    this.offTick = market.onTick((quotes, at) => this.onTick(quotes, at));
  }

  /** Computations finished (one per chain per tick at most). */
  get computations() {
    return this.engine.computations;
  }

  private onTick(quotes: readonly Quote[], at: number) {
    if (this.chains.size === 0) return;
    // A chain is recomputed once per tick when its future or any of its options moved.
    const touched = new Map<Chain, Quote[]>();
    for (const q of quotes) {
      const chain = this.chains.get(this.symbolToFuture.get(q.symbol) ?? '');
      if (!chain) continue;
      const list = touched.get(chain);
      if (list) list.push(q);
      else touched.set(chain, [q]);
    }
    for (const [chain, list] of touched) chain.handle?.update(list, at);
  }

  private onCurves(chain: Chain, changed: [string, CurvePoint[]][], at: number) {
    chain.at = at;
    if (changed.length === 0) return;
    for (const [key, data] of changed) chain.curves.set(key, data);
    const update: Update = { changed: new Map(changed), at };
    for (const l of chain.listeners) l(update);
  }

  private chain(future: string): Chain {
    let chain = this.chains.get(future);
    if (chain) return chain;
    const release = this.market.subscribeChains([future]);
    const options = this.market.optionChain(future);
    const symbols = [future, ...options.map((o) => o.symbol)];
    const snapshot = () => symbols.flatMap((s) => this.market.getQuote(s) ?? []);
    let ready!: () => void;
    const c: Chain = {
      future,
      curves: new Map(),
      at: 0,
      listeners: new Set(),
      ready: new Promise<void>((resolve) => (ready = resolve)),
      release,
    };
    chain = c;
    this.chains.set(future, c);
    for (const s of symbols) this.symbolToFuture.set(s, future);
    let first = true;
    c.handle = this.engine.open(
      { future, options, rate: this.opts.rate ?? 0.015, quotes: snapshot(), at: (this.opts.now ?? Date.now)() },
      snapshot,
      (changed, at) => {
        if (first) {
          first = false;
          c.curves = new Map(changed);
          c.at = at;
          ready();
        } else this.onCurves(c, changed, at);
      },
    );
    return chain;
  }

  private drop(chain: Chain, listener: (update: Update) => void) {
    chain.listeners.delete(listener);
    if (chain.listeners.size > 0 || this.chains.get(chain.future) !== chain) return;
    chain.handle?.close();
    chain.release();
    this.chains.delete(chain.future);
    for (const [symbol, future] of this.symbolToFuture) if (future === chain.future) this.symbolToFuture.delete(symbol);
  }

  /** Active chains (for tests and metrics). */
  activeFutures() {
    return [...this.chains.keys()];
  }

  async close() {
    this.offTick();
    for (const c of this.chains.values()) {
      c.handle?.close();
      c.release();
    }
    this.chains.clear();
    this.symbolToFuture.clear();
    await this.engine.close();
  }

  /** The view source registered as `volatility_curves`. */
  get source(): ViewSource {
    return {
      public: this.opts.public,
      subscribe: (params, push) => this.subscribe(params, push),
      // The futures whose chains the subscription keeps computed (the connection caps them: ws/limits.ts).
      resources: (params) =>
        Array.isArray(params.items)
          ? [...new Set(params.items.map((i: unknown) => String((i as { symbol?: unknown } | null)?.symbol ?? '')))]
          : [],
    };
  }

  private async subscribe(params: Record<string, unknown>, push: (patch: Record<string, unknown>) => void) {
    const keys = parseItems(params.items, this.opts.isFuture, this.opts.maxItems ?? MAX_ITEMS);
    const byFuture = new Map<string, Set<string>>();
    for (const k of keys) {
      const set = byFuture.get(k.future) ?? new Set<string>();
      set.add(k.key);
      byFuture.set(k.future, set);
    }
    const subs: [Chain, (update: Update) => void][] = [];
    const close = () => subs.forEach(([c, l]) => this.drop(c, l));
    // Until the initial data is taken, updates are in it already (a chain's curves change first).
    let started = false;
    for (const [future, wanted] of byFuture) {
      const chain = this.chain(future);
      const wantedKey = [...wanted].sort().join('|');
      const listener = (update: Update) => {
        if (!started) return;
        let byWanted = sharedPatches.get(update);
        if (!byWanted) sharedPatches.set(update, (byWanted = new Map()));
        let patch = byWanted.get(wantedKey);
        if (patch === undefined) {
          const mine = [...update.changed].filter(([key]) => wanted.has(key));
          patch = mine.length > 0 ? { patch: patchOf(mine, update.at) } : null;
          byWanted.set(wantedKey, patch);
        }
        if (patch) push(patch);
      };
      chain.listeners.add(listener);
      subs.push([chain, listener]);
    }
    try {
      await Promise.all(subs.map(([c]) => c.ready));
    } catch (e) {
      close();
      throw e;
    }
    started = true;
    // A new subscriber needs no removal marks: only the points there are.
    const initial = subs.flatMap(([c]) =>
      [...byFuture.get(c.future)!].map((key) => {
        const data = (c.curves.get(key) ?? []).filter(([, iv]) => iv > 0);
        return [key, { _key: key, curve_data: data, tick_time: c.at }] as const;
      }),
    );
    return { initial: { patch: Object.fromEntries(initial) }, close };
  }
}

function parseItems(items: unknown, isFuture: (s: string) => boolean, maxItems: number) {
  if (!Array.isArray(items) || items.length === 0) throw new WsError('BAD_PARAMS', '参数 items 必须是非空数组');
  if (items.length > maxItems) throw new WsError('TOO_MANY_CURVES', `每个视图最多订阅 ${maxItems} 条曲线`);
  return items.map((raw, i) => {
    const it = (raw ?? {}) as Record<string, unknown>;
    const symbol = typeof it.symbol === 'string' ? it.symbol : '';
    const o = typeof it.option_type === 'string' ? it.option_type.toUpperCase() : '';
    const p = typeof it.price_type === 'string' ? it.price_type.toLowerCase() : '';
    if (!isFuture(symbol))
      throw new WsError('BAD_PARAMS', `items[${i}].symbol 不是有效的期货合约：${symbol || '(空)'}`);
    if (o !== 'CALL' && o !== 'PUT') throw new WsError('BAD_PARAMS', `items[${i}].option_type 必须是 CALL 或 PUT`);
    if (!PRICE_TYPES.includes(p as PriceType))
      throw new WsError('BAD_PARAMS', `items[${i}].price_type 必须是 ask、bid、mid 或 last`);
    return { future: symbol, key: curveKey(symbol, o as OptionType, p as PriceType) };
  });
}
