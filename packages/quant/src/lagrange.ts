const SIXTH = 1 / 6;

/**
 * The weights of cubic Lagrange interpolation on the nodes −1, 0, 1, 2 at v ∈ [0, 1), written into out[at … at + 3]:
 * a typed array, so that the hot paths allocate nothing.
 */
export function cubicWeights(v: number, out: Float64Array, at = 0): void {
  const vm1 = v - 1;
  const vm2 = v - 2;
  const vp1 = v + 1;
  out[at] = -v * vm1 * vm2 * SIXTH;
  out[at + 1] = vp1 * vm1 * vm2 * 0.5;
  out[at + 2] = -vp1 * v * vm2 * 0.5;
  out[at + 3] = vp1 * v * vm1 * SIXTH;
}
