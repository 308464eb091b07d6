/**
 * European option on a futures contract (Black-76, b = 0) with its Greeks in closed form. The price is the package's
 * `black76Price`; the Greeks are the textbook ones: with d₁ = [ln(F/K) + σ²T/2]/(σ√T), D = e^{−rT},
 * delta = ±D·Φ(±d₁), gamma = D·φ(d₁)/(Fσ√T), vega = D·F·φ(d₁)·√T, theta = rV − D·F·φ(d₁)·σ/(2√T).
 */
import { black76Price } from '../black76.js';
import { normCdf } from '../normal.js';
import { normPdf, type Valuation } from './greeks.js';

export function vanilla(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): Valuation {
  const price = black76Price(F, K, T, r, isCall, sigma);
  const D = Math.exp(-r * T);
  const s = sigma * Math.sqrt(T);
  if (!(s > 0) || !(T > 0)) {
    const itm = isCall ? F > K : F < K;
    return { price, delta: itm ? (isCall ? D : -D) : 0, gamma: 0, vega: 0, theta: r * price };
  }
  const d1 = Math.log(F / K) / s + 0.5 * s;
  const pdf = normPdf(d1);
  const delta = isCall ? D * normCdf(d1) : -D * normCdf(-d1);
  return {
    price,
    delta,
    gamma: (D * pdf) / (F * s),
    vega: D * F * pdf * Math.sqrt(T),
    theta: r * price - (D * F * pdf * sigma) / (2 * Math.sqrt(T)),
  };
}
