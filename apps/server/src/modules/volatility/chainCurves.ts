/**
 * The 8 curves of one future's option chain (CALL/PUT × ask/bid/mid/last), kept up to date from the
 * chain's quotes. Plain computation, no I/O: it runs inside a curve worker (curveWorker.ts).
 *
 * A client merges a patch into its curves point by point (SPEC §4) and keeps strikes a patch does not
 * mention, so a strike that loses its point is sent as [strike, 0], which SPEC §3 reads as missing.
 * Once a strike has had a point, every later version of that curve lists it, so the removal survives
 * the merging of several patches before a peek.
 */
import { forwardPrice } from '../../market/quote';
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';
import { curveKey, OPTION_TYPES, PRICE_TYPES, type CurveItem } from '@pfp/contract';
import { impliedPoint, type PriceType, type TradeMark } from './curveRules';

export type OptionType = CurveItem['option_type'];
export type { PriceType } from './curveRules';
/** [strike, σ]; σ = 0 marks a strike whose point went away. */
export type CurvePoint = [strike: number, iv: number];

export { curveKey, OPTION_TYPES, PRICE_TYPES };
const YEAR_MS = 365 * 86_400_000;

interface Curve {
  key: string;
  price: PriceType;
  /** The options of this side, by ascending strike. */
  options: OptionSpec[];
  /** σ per option (NaN: no point), and whether the strike ever had one. */
  iv: Float64Array;
  seen: Uint8Array;
}

export class ChainCurves {
  private readonly quotes = new Map<string, Quote>();
  /** Trades seen in the quotes of a feed that does not stamp them (no last_trade_ms). */
  private readonly observed = new Map<string, TradeMark>();
  private readonly curves: Curve[] = [];

  constructor(
    readonly future: string,
    options: readonly OptionSpec[],
    private readonly rate: number,
  ) {
    const sorted = [...options].sort((a, b) => a.strike - b.strike);
    for (const o of OPTION_TYPES) {
      const side = sorted.filter((s) => s.optionType === o);
      for (const price of PRICE_TYPES) {
        this.curves.push({
          key: curveKey(future, o, price),
          price,
          options: side,
          iv: new Float64Array(side.length).fill(NaN),
          seen: new Uint8Array(side.length),
        });
      }
    }
  }

  /** Takes in the quotes of a tick (any of the future and its options; others are ignored). */
  apply(quotes: readonly Quote[], at: number): void {
    let F: number | undefined;
    for (const q of quotes) if (q.symbol === this.future) this.quotes.set(q.symbol, q);
    for (const q of quotes) {
      if (q.symbol === this.future) continue;
      const before = this.quotes.get(q.symbol);
      this.quotes.set(q.symbol, q);
      if (q.last_trade_ms !== undefined || !before) continue;
      // A trade shows as a rise in volume (a new trading day resets it).
      if (q.volume > before.volume) {
        F ??= forwardPrice(this.quotes.get(this.future));
        if (F !== undefined) this.observed.set(q.symbol, { at, underlying: F });
      }
    }
  }

  /**
   * Recomputes every curve at `at` and returns the curves that changed, as sent to clients (with the
   * [strike, 0] of strikes that lost their point).
   */
  update(at: number): [key: string, data: CurvePoint[]][] {
    const F = forwardPrice(this.quotes.get(this.future));
    const changed: [string, CurvePoint[]][] = [];
    for (const curve of this.curves) {
      let dirty = false;
      curve.options.forEach((opt, i) => {
        const q = this.quotes.get(opt.symbol);
        const iv =
          F === undefined || !q
            ? undefined
            : impliedPoint(
                opt,
                q,
                curve.price,
                { F, T: (opt.expiryMs - at) / YEAR_MS, rate: this.rate },
                this.tradeOf(q),
              );
        const next = iv ?? NaN;
        const prev = curve.iv[i]!;
        if (next !== prev && !(Number.isNaN(next) && Number.isNaN(prev))) {
          curve.iv[i] = next;
          dirty = true;
        }
        if (iv !== undefined) curve.seen[i] = 1;
      });
      if (dirty) changed.push([curve.key, this.wire(curve)]);
    }
    return changed;
  }

  /** Every curve as sent to clients. */
  all(): [key: string, data: CurvePoint[]][] {
    return this.curves.map((c) => [c.key, this.wire(c)]);
  }

  private tradeOf(q: Quote): TradeMark | undefined {
    if (q.last_trade_ms !== undefined && q.last_trade_underlying !== undefined) {
      return { at: q.last_trade_ms, underlying: q.last_trade_underlying };
    }
    return this.observed.get(q.symbol);
  }

  private wire(curve: Curve): CurvePoint[] {
    const out: CurvePoint[] = [];
    curve.options.forEach((opt, i) => {
      const iv = curve.iv[i]!;
      if (!Number.isNaN(iv)) out.push([opt.strike, iv]);
      else if (curve.seen[i]) out.push([opt.strike, 0]);
    });
    return out;
  }
}
