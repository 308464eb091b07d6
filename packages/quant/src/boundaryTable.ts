/**
 * The exercise boundary of the b = 0 put (K = 1), tabulated once over its two dimensionless parameters.
 *
 * With q = r, measuring time in units of 1/σ² turns the pricing equation into V_s = ½S²V_SS − (r/σ²)·V, so B at time to
 * expiry τ depends on (σ, r, τ) only through c = rτ and a = σ²τ. G = (ln B)²/a is smooth in (x, z) = (ln c, ln a) and
 * stops depending on a once a ≪ c² (the short-time asymptotics of the boundary), so below z = 2x − FLAT it is taken
 * as constant in z. Each entry is one ALO collocation solve (alo.ts) at τ = T; a bicubic Lagrange interpolation then
 * gives B, and ∂B/∂σ through ∂G/∂z, anywhere inside the table in a few dozen flops instead of a fixed-point solve.
 * Interpolation error (measured against 16-node solves): ≤ 2e-5 relative in G for rτ ≤ 0.1 and a = σ²τ ≤ 8 (the
 * worst at both limits), 1e-6 typically.
 * Entries are solved on first use.
 */
import { boundaryAtExpiry, makeScheme, solveBoundary } from './alo.js';

const X_LO = -22; // ln(rτ): below, the boundary is clamped (τ → 0, where the premium has no weight)
const X_HI = -1;
const Z_LO = -33; // ln(σ²τ)
const Z_HI = 2.5;
const HX = 0.5; // grid steps in x and z (G varies faster in z where σ²τ is large)
const HZ = 0.25;
const NX = Math.round((X_HI - X_LO) / HX) + 1;
const NZ = Math.round((Z_HI - Z_LO) / HZ) + 1;
/** G is independent of z (to 1e-7) for z ≤ 2x − 2: clamp there with a margin. */
const FLAT = 4;
/** Entries are solved for r/σ² = e^{x−z} in [e^{−RHO_LO}, e^{RHO_HI}]; outside, the caller solves directly. */
const RHO_LO = 18;
const RHO_HI = 11;

/** G at the grid points, filled on first use: NaN until solved, −1 outside the solved range. */
const table = new Float64Array(NX * NZ).fill(NaN);
const scheme = makeScheme(8, 10, 4, 1);

/**
 * Solves entry (i, j): one collocation solve with 8 nodes (~50 µs). Entries are filled as lookups reach them, so a
 * process pays only for the part of the table its options use (a few milliseconds for one expiry).
 */
function fill(index: number): number {
  const i = Math.floor(index / NZ);
  const x = X_LO + i * HX;
  const z = Z_LO + (index - i * NZ) * HZ;
  let g = -1;
  if (!(z < 2 * x - FLAT - 3 || x - z > RHO_HI || z - x > RHO_LO)) {
    const a = Math.exp(z);
    // σ = 1, T = a, r = c/a: the boundary at τ = T of that option is B(c, a).
    solveBoundary(scheme, a, Math.exp(x) / a, 1, scheme.m);
    g = boundaryAtExpiry(scheme) / a;
    if (!(g >= 0)) g = -1;
  }
  table[index] = g;
  return g;
}

/** Entry `index`, solved if not yet. */
function entry(index: number): number {
  const g = table[index]!;
  return g === g ? g : fill(index);
}

/** ∂G/∂z at the last lookup. */
export const tableOut = new Float64Array(1);

/**
 * G(x, z) = (ln B)²/(σ²τ) at x = ln(rτ), z = ln(σ²τ), and ∂G/∂z in tableOut[0]. NaN outside the table (z > Z_HI − 2HZ,
 * x > X_HI − 2HX, or r/σ² outside the solved range).
 */
export function boundaryG(x: number, z: number): number {
  if (x < X_LO + HX) x = X_LO + HX;
  let flat = false;
  if (z < 2 * x - FLAT) {
    z = 2 * x - FLAT;
    flat = true;
  }
  const fx = (x - X_LO) / HX;
  const fz = (z - Z_LO) / HZ;
  const ix = Math.floor(fx);
  const iz = Math.floor(fz);
  if (!(ix >= 1 && ix <= NX - 3 && iz >= 1 && iz <= NZ - 3)) return NaN;
  const u = fx - ix;
  const v = fz - iz;
  // Cubic Lagrange weights on the nodes −1, 0, 1, 2 and, for z, their derivatives.
  const um1 = u - 1;
  const um2 = u - 2;
  const up1 = u + 1;
  const wx0 = (-u * um1 * um2) / 6;
  const wx1 = (up1 * um1 * um2) / 2;
  const wx2 = (-up1 * u * um2) / 2;
  const wx3 = (up1 * u * um1) / 6;
  const vm1 = v - 1;
  const vm2 = v - 2;
  const vp1 = v + 1;
  const wz0 = (-v * vm1 * vm2) / 6;
  const wz1 = (vp1 * vm1 * vm2) / 2;
  const wz2 = (-vp1 * v * vm2) / 2;
  const wz3 = (vp1 * v * vm1) / 6;
  const dz0 = -(3 * v * v - 6 * v + 2) / 6;
  const dz1 = (3 * v * v - 4 * v - 1) / 2;
  const dz2 = -(3 * v * v - 2 * v - 2) / 2;
  const dz3 = (3 * v * v - 1) / 6;
  let g = 0;
  let gz = 0;
  for (let k = 0; k < 4; k++) {
    const row = (ix - 1 + k) * NZ + iz - 1;
    const c0 = entry(row);
    const c1 = entry(row + 1);
    const c2 = entry(row + 2);
    const c3 = entry(row + 3);
    if (!(c0 >= 0 && c1 >= 0 && c2 >= 0 && c3 >= 0)) return NaN;
    const wx = k === 0 ? wx0 : k === 1 ? wx1 : k === 2 ? wx2 : wx3;
    g += wx * (wz0 * c0 + wz1 * c1 + wz2 * c2 + wz3 * c3);
    gz += wx * (dz0 * c0 + dz1 * c1 + dz2 * c2 + dz3 * c3);
  }
  tableOut[0] = flat ? 0 : gz / HZ;
  return g;
}
