// Typed view of quantlib.json (written by generate.py with QuantLib; read by the tests and the benchmark).
import table from './quantlib.json';

export interface AmericanRow {
  F: number;
  K: number;
  days: number;
  T: number;
  r: number;
  sigma: number;
  call: boolean;
  /** QdFpAmericanEngine, high-precision scheme, on a process with q = r. */
  price: number;
  /** QuantLib blackFormula at the same inputs. */
  european: number;
}

export interface EuropeanRow {
  F: number;
  K: number;
  T: number;
  r: number;
  sigma: number;
  call: boolean;
  /** QuantLib blackFormula. */
  price: number;
}

export const source: string = table.source;
export const americanRows: readonly AmericanRow[] = table.american;
export const europeanRows: readonly EuropeanRow[] = table.european;

/** The quotable inputs: a time value of at least 1e-4·K carries volatility information worth quoting. */
export function quotable(row: AmericanRow): boolean {
  return row.price - Math.max(row.call ? row.F - row.K : row.K - row.F, 0) >= 1e-4 * row.K;
}
