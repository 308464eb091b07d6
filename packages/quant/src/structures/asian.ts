/**
 * Arithmetic-average (Asian) option on a futures price (b = 0) over the trading days of a window, some of which may
 * already be fixed. The average A = (S + Σ F_i)/N of the N days, S the sum of the fixings so far, pays (A − K)⁺ or
 * (K − A)⁺ on the last day.
 *
 * Method: conditioning on the geometric average (Curran 1994) with a lognormal conditional (Lord 2006, "partially
 * exact"). With F_i = F·exp(−σ²t_i/2 + σW_i), let Z be the normalised sum of the W_i: Z fixes the geometric average
 * G of the future fixings, and A ≥ G. So for z above z_G (where G = K) the payoff is linear and its value exact;
 * below, A given Z = z is a sum of correlated lognormals whose first two moments are exact and small in spread (the
 * common factor is gone), matched to a lognormal: a Black formula, integrated over z by Gauss–Legendre on panels
 * that close in on the point where the conditional mean crosses K. The Greeks are finite differences of the price.
 */
import { normCdf } from '../normal.js';
import { normPdf, type Valuation } from './greeks.js';

export interface AsianTerms {
  F: number;
  K: number;
  isCall: boolean;
  sigma: number;
  r: number;
  /** Times (years, ≥ 0, increasing) of the window's fixings still to come; 0 for today's close when not yet fixed. */
  times: readonly number[];
  /** The window's fixings so far. */
  fixings?: readonly number[];
  /** Time of payment: the window's last day. */
  payTime: number;
}

const GL_X = [
  -0.9602898564975363, -0.796666477413626, -0.525532409916329, -0.1834346424956498, 0.1834346424956498,
  0.525532409916329, 0.796666477413626, 0.9602898564975363,
];
const GL_W = [
  0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.362683783378362, 0.362683783378362, 0.3137066458778873,
  0.2223810344533745, 0.1012285362903763,
];
const Z_LO = -8.5;

/** E[(Ā − K)⁺]: the undiscounted call on the mean Ā of future fixings at `times` (F₀ = F), strike K > 0. */
function averageCall(F: number, K: number, sigma: number, times: readonly number[]): number {
  const m = times.length;
  // c_i = Σ_k min(t_i, t_k) = Cov(W_i, ΣW)/1; V = Var(ΣW).
  const c = new Float64Array(m);
  let prefix = 0;
  let sumT = 0;
  for (let i = 0; i < m; i++) {
    c[i] = prefix + (m - i) * times[i]!;
    prefix += times[i]!;
    sumT += times[i]!;
  }
  let V = 0;
  for (let i = 0; i < m; i++) V += c[i]!;
  if (!(sigma > 0) || !(V > 1e-300)) {
    return Math.max(F - K, 0);
  }
  const rootV = Math.sqrt(V);
  const beta = new Float64Array(m);
  const growth = new Float64Array(m); // e^{σ² t_i}
  let betaMax = 0;
  for (let i = 0; i < m; i++) {
    beta[i] = (sigma * c[i]!) / rootV;
    growth[i] = Math.exp(sigma * sigma * times[i]!);
    betaMax = Math.max(betaMax, beta[i]!);
  }
  // Terms of the Taylor series of e^{−β_iβ_j} kept: (β²_max)^P/P! below 1e-17.
  const b2 = betaMax * betaMax;
  let P = 0;
  for (let term = 1; term > 1e-17 && P < 60;) {
    P++;
    term *= b2 / P;
  }
  const u = new Float64Array(m);
  const up = new Float64Array(m);
  const scale = F / m;

  // Conditional mean and second moment of Ā given Z = z.
  let M1 = 0;
  let M2 = 0;
  const moments = (z: number) => {
    let s1 = 0;
    for (let i = 0; i < m; i++) {
      const bi = beta[i]!;
      u[i] = Math.exp(bi * z - 0.5 * bi * bi);
      s1 += u[i]!;
      up[i] = u[i]!;
    }
    // Σ_ij u_i u_j e^{σ² min(t_i,t_j)} e^{−β_iβ_j} = Σ_p (−1)^p/p!·Σ_ij (u_iβ_i^p)(u_jβ_j^p)e^{σ² t_min(i,j)}; times are
    // sorted, so each p is one pass with a running suffix sum.
    let s2 = 0;
    let coef = 1;
    for (let p = 0; p <= P; p++) {
      let suffix = 0;
      let acc = 0;
      for (let i = m - 1; i >= 0; i--) {
        const v = up[i]!;
        acc += v * growth[i]! * (v + 2 * suffix);
        suffix += v;
      }
      s2 += coef * acc;
      coef *= -1 / (p + 1);
      for (let i = 0; i < m; i++) up[i] = up[i]! * beta[i]!;
    }
    M1 = scale * s1;
    M2 = scale * scale * s2;
  };

  // Above z_G the geometric average is above K, so is Ā: E[(Ā − K)1{Z ≥ z_G}] = (F/m)Σ Φ(β_i − z_G) − K·Φ(−z_G).
  const zG = ((Math.log(K / F) + (0.5 * sigma * sigma * sumT) / m) * m) / (sigma * rootV);
  let value = 0;
  for (let i = 0; i < m; i++) value += normCdf(beta[i]! - zG);
  value = scale * value - K * normCdf(-zG);
  if (zG <= Z_LO) return value;

  // E[(Ā − K)⁺ | Z = z], Ā given z lognormal with the exact conditional mean and second moment.
  const black = (z: number) => {
    moments(z);
    const v2 = Math.log(M2 / (M1 * M1));
    const s = v2 > 0 ? Math.sqrt(v2) : 0;
    if (!(s > 1e-12)) return Math.max(M1 - K, 0);
    const d1 = Math.log(M1 / K) / s + 0.5 * s;
    return M1 * normCdf(d1) - K * normCdf(d1 - s);
  };

  // Where the conditional mean crosses K: M1 is increasing and convex in z, so Newton from z_G (M1 ≥ G = K there)
  // walks down to it.
  let zM = zG;
  for (let it = 0; it < 60; it++) {
    moments(zM);
    let dM = 0;
    for (let i = 0; i < m; i++) dM += beta[i]! * u[i]!;
    dM *= scale;
    const step = (M1 - K) / dM;
    if (!(step > 0) || !(dM > 0)) break;
    zM -= step;
    if (step < 1e-12 || zM < Z_LO) break;
  }
  const edges = new Set<number>([Z_LO, zG]);
  for (let w = 1 / 16, sum = 0; sum < 20; w *= 2) {
    edges.add(zM - sum);
    edges.add(zM + sum);
    sum += w;
  }
  const cuts = [...edges].filter((e) => e >= Z_LO && e <= zG).sort((a, b) => a - b);
  for (let k = 0; k + 1 < cuts.length; k++) {
    const lo = cuts[k]!;
    const hi = cuts[k + 1]!;
    const half = 0.5 * (hi - lo);
    const mid = 0.5 * (hi + lo);
    if (half < 1e-14) continue;
    for (let g = 0; g < 8; g++) {
      const z = mid + half * GL_X[g]!;
      const wz = half * GL_W[g]! * normPdf(z);
      value += wz * black(z);
    }
  }
  return value;
}

/** Price of the Asian option at volatility `sigma`. */
function priceAsian(terms: AsianTerms, sigma: number): { price: number } {
  const { F, K, isCall, r } = terms;
  const fixings = terms.fixings ?? [];
  const times = terms.times;
  const m = times.length;
  const N = fixings.length + m;
  const S = fixings.reduce((a, b) => a + b, 0);
  const df = Math.exp(-r * terms.payTime);
  // Put–call parity on the average: put = call − df·(E[A] − K).
  const parity = df * ((S + m * F) / N - K);
  // (A − K)⁺ = (m/N)·(Ā − K_eff)⁺ with Ā the mean of the future fixings and K_eff = (N·K − S)/m.
  const Keff = m > 0 ? (K * N - S) / m : 0;
  let call: number;
  if (m === 0) call = df * Math.max(S / N - K, 0);
  else if (Keff <= 0) call = parity;
  else call = ((df * m) / N) * averageCall(F, Keff, sigma, times);
  return { price: isCall ? call : Math.max(call - parity, 0) };
}

/** The price alone (no Greeks). */
export function asianPrice(terms: AsianTerms): number {
  return priceAsian(terms, terms.sigma).price;
}

export function asianOption(terms: AsianTerms): Valuation {
  // Delta and gamma by central differences in F, vega one-sided (the price is smooth and not a difference of large
  // numbers: a step of 1e-6 leaves an error far below 1%); theta from the pricing equation: between fixings the value
  // solves ∂V/∂t + ½σ²F²·∂²V/∂F² − rV = 0. Four prices in all.
  const base = priceAsian(terms, terms.sigma).price;
  // A step of 1% of the average's spread: truncation near 1e-5 of gamma, well above the quadrature's rounding.
  const spread = terms.sigma * Math.sqrt(terms.times[terms.times.length - 1] ?? 0);
  const hF = terms.F * Math.max(1e-5, 0.01 * spread);
  const up = priceAsian({ ...terms, F: terms.F + hF }, terms.sigma).price;
  const down = priceAsian({ ...terms, F: terms.F - hF }, terms.sigma).price;
  const dSigma = 1e-6;
  const vol = priceAsian(terms, terms.sigma + dSigma).price;
  const gamma = (up - 2 * base + down) / (hF * hF);
  return {
    price: base,
    delta: (up - down) / (2 * hF),
    gamma,
    vega: (vol - base) / dSigma,
    theta: terms.r * base - 0.5 * terms.sigma * terms.sigma * terms.F * terms.F * gamma,
  };
}
