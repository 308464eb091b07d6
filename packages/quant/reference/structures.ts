// Typed view of structures.json (written by structures.py with QuantLib and numpy; read by the tests and the bench).
import table from './structures.json';

interface Market {
  F: number;
  r: number;
  sigma: number;
  /** Calendar days from the valuation date to each observation still to come (weekdays). */
  days: number[];
}

export interface VanillaRow {
  F: number;
  K: number;
  days: number;
  r: number;
  sigma: number;
  call: boolean;
  price: number;
  delta: number;
  gamma: number;
  vega: number;
  theta: number;
  quantlibMicros?: number;
}

export interface AsianRow extends Market {
  K: number;
  call: boolean;
  fixings: number[];
  price: number;
  se: number;
  turnbullWakeman: number;
  quantlibMicros: number;
  quantlibMc?: number;
  quantlibMcSe?: number;
}

export interface BarrierRow extends Market {
  K: number;
  call: boolean;
  barrier: number;
  direction: 'up' | 'down';
  knock: 'in' | 'out';
  rebate: number;
  price: number;
  se: number;
}

export interface AccumulatorRow extends Market {
  K: number;
  barrier: number;
  leverage: number;
  quantityPerDay: number;
  side: 'buy' | 'sell';
  price: number;
  se: number;
}

/** Haug, Table 4-28 (b = 0): Turnbull–Wakeman's value and the 10⁶-path Monte Carlo of the exact one. */
export interface HaugRow {
  call: boolean;
  K: number;
  /** Fixing times in years (Actual/360 days), paid at 0.5. */
  times: number[];
  haug: number;
  price: number;
  se: number;
}

/** Bumped Monte Carlo Greeks (common random numbers: F ± 1 %, σ ± 0.01) of row `index` of the engine's table. */
export interface GreekRow {
  engine: 'asian' | 'barrier' | 'accumulator';
  index: number;
  delta: number;
  deltaSe: number;
  vega: number;
  vegaSe: number;
}
export const GREEK_BUMPS = { F: 0.01, sigma: 0.01 };

export const structuresSource: string = table.source;
export const vanillaRows = table.vanilla as VanillaRow[];
export const asianRows = table.asian as AsianRow[];
export const barrierRows = table.barrier as BarrierRow[];
export const accumulatorRows = table.accumulator as AccumulatorRow[];
export const haugRows = table.haug as HaugRow[];
export const greekRows = ((table as { greeks?: unknown }).greeks ?? []) as GreekRow[];

export const times = (days: readonly number[]) => days.map((d) => d / 365);
