import type { Kind } from './structureForm';

/**
 * The payoff chart's lines (docs/pricing.md): the goods' price per unit at expiry against the future's, the plain
 * contract (期货价 + 基差) beside the one with the option inside. Call: the buyer's price, capped
 * (期货价 + 基差 − 期权收益 + 权利金); put: the seller's, floored (期货价 + 基差 + 期权收益 − 权利金). A barrier is
 * read off the price at expiry (a monotone path): knocked in or out by whether it lies beyond the barrier, the
 * rebate when the option is not alive. An accumulator at a price level held over its days: the day's settlement per
 * unit of the daily quantity, 累购 pays it against the goods (期货价 + 基差 − 结算), 累沽 receives it.
 */
export interface PayoffTerms {
  kind: Kind;
  forward: number;
  basis: number;
  /** The price per unit paid for the option (an accumulator: its value ÷ the most it may accumulate). */
  premium: number;
  optionType: 'call' | 'put';
  strike: number;
  barrier?: number | undefined;
  barrierType?: 'up_in' | 'up_out' | 'down_in' | 'down_out' | undefined;
  rebate?: number | undefined;
  side?: 'buy' | 'sell' | undefined;
  leverage?: number | undefined;
}

export interface PayoffLines {
  x: number[];
  plain: number[];
  embedded: number[];
}

const POINTS = 80;

function optionPayoff(t: PayoffTerms, x: number): number {
  const vanilla = t.optionType === 'call' ? Math.max(x - t.strike, 0) : Math.max(t.strike - x, 0);
  if (t.kind !== 'barrier' || t.barrier === undefined || !t.barrierType) return vanilla;
  const touched = t.barrierType.startsWith('up') ? x >= t.barrier : x <= t.barrier;
  const alive = t.barrierType.endsWith('out') ? !touched : touched;
  return alive ? vanilla : (t.rebate ?? 0);
}

/** The day's settlement per unit of the daily quantity at the level x (the rule). */
function accumulatorSettlement(t: PayoffTerms, x: number): number {
  const H = t.barrier ?? Number.NaN;
  const L = t.leverage ?? 1;
  const K = t.strike;
  if (t.side === 'sell') return x <= H ? K - H : x <= K ? K - x : L * (K - x);
  return x >= H ? H - K : x >= K ? x - K : L * (x - K);
}

export function payoffLines(t: PayoffTerms): PayoffLines {
  const marks = [t.forward, t.strike, t.barrier].filter((v): v is number => v !== undefined && Number.isFinite(v));
  const lo = Math.min(...marks) * 0.8;
  const hi = Math.max(...marks) * 1.2;
  const grid = Array.from({ length: POINTS + 1 }, (_, i) => lo + ((hi - lo) * i) / POINTS);
  // The kinks themselves, and just below a barrier, so the steps show where they are.
  const kinks = t.barrier !== undefined ? [t.strike, t.barrier, t.barrier - (hi - lo) * 1e-4] : [t.strike];
  const x = [...new Set([...grid, ...kinks])].sort((a, b) => a - b).map((v) => Math.round(v * 100) / 100);
  const plain = x.map((v) => v + t.basis);
  const embedded = x.map((v) => {
    if (t.kind === 'accumulator') {
      const s = accumulatorSettlement(t, v);
      return t.side === 'sell' ? v + t.basis + s - t.premium : v + t.basis - s + t.premium;
    }
    const p = optionPayoff(t, v);
    return t.optionType === 'call' ? v + t.basis - p + t.premium : v + t.basis + p - t.premium;
  });
  return { x, plain, embedded };
}
