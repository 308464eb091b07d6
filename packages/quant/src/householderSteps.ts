/** The correction steps of the implied-volatility solver, from the Newton step ν and h_k = g⁽ᵏ⁾/g′ of its objective g. */

const SIXTH = 1 / 6;
const FIVE_TWELFTHS = 5 / 12;
const FIVE_EIGHTHS = 5 / 8;
const TWENTY_FOURTH = 1 / 24;

/** Third-order Householder factor: the step is ν·(1 + h₂ν/2)/(1 + ν(h₂ + h₃ν/6)) with h_k = g⁽ᵏ⁾/g'. */
export function householder(nu: number, h2: number, h3: number): number {
  return (1 + 0.5 * h2 * nu) / (1 + nu * (h2 + (h3 * nu) / 6));
}

/** Fourth-order (quintically convergent) step from the Newton step ν and h_k = g⁽ᵏ⁾/g′: series reversion of Taylor. */
export function quartic(nu: number, h2: number, h3: number, h4: number): number {
  const c3 = 0.5 * h2 * h2 - SIXTH * h3;
  const c4 = h2 * (FIVE_TWELFTHS * h3 - FIVE_EIGHTHS * h2 * h2) - TWENTY_FOURTH * h4;
  return nu * (1 + nu * (-0.5 * h2 + nu * (c3 + nu * c4)));
}
