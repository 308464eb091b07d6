import fc from 'fast-check';
import { expect, it } from 'vitest';
import { boundaryAtExpiry, makeScheme, solveBoundary } from './alo.js';
import { boundaryG } from './boundaryTable.js';

const fine = makeScheme(16, 24, 10, 1);

/** G = (ln B)²/a at x = ln(rτ), z = ln(σ²τ) from a direct 16-node solve (σ = 1, T = a, r = c/a). */
function solved(x: number, z: number): number {
  const a = Math.exp(z);
  solveBoundary(fine, a, Math.exp(x) / a, 1, fine.m);
  return boundaryAtExpiry(fine) / a;
}

// 1e-4 in G moves the American implied volatility by about 1.5e-6 (measured by perturbing the boundary).
it('interpolates the boundary within 1e-4 of a direct 16-node solve where options are quoted (σ²τ ≤ 8)', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -20, max: -2.3, noNaN: true }), // rτ from 2e-9 to 0.1
      fc.double({ min: -12, max: Math.log(8), noNaN: true }),
      (x, z) => {
        if (z - x > 17 || x - z > 10) return; // r/σ² outside the table: solved directly by the caller
        const g = boundaryG(x, z);
        expect(Math.abs(g - solved(x, z)) / solved(x, z)).toBeLessThan(1e-4);
      },
    ),
    { numRuns: 200, seed: 5 },
  );
});

it('answers NaN outside the table, for the caller to solve directly', () => {
  expect(boundaryG(-5, 4)).toBeNaN(); // σ²τ = e⁴ > e^2.5
  expect(boundaryG(-0.5, -2)).toBeNaN(); // rτ = e^−0.5
});
