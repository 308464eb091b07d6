/**
 * What every structure engine answers. Greeks are plain derivatives of `price`: delta = ∂V/∂F and gamma = ∂²V/∂F²
 * per unit of the future, vega = ∂V/∂σ per unit of volatility (1.00 = 100 vol points), theta = ∂V/∂t per year of
 * calendar time passing (every time still to come shortens by the same amount; F, σ and r held).
 */
export interface Valuation {
  price: number;
  delta: number;
  gamma: number;
  vega: number;
  theta: number;
}

export const INV_SQRT_TWO_PI = 0.3989422804014327;

export function normPdf(z: number): number {
  return INV_SQRT_TWO_PI * Math.exp(-0.5 * z * z);
}

/** A price without Greeks (NaN), for the price-only entry points. */
export function priceOnly(price: number): Valuation {
  return { price, delta: NaN, gamma: NaN, vega: NaN, theta: NaN };
}
