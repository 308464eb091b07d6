import fc from 'fast-check';
import { expect, it } from 'vitest';
import { boundaryAtExpiry, makeScheme, solveBoundary } from './alo.js';
import data from './boundaryTable.data.json';
import { bandOf, boundaryG, GRID, solveEntry, tableEntry, tableOut } from './boundaryTable.js';

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
        const g = boundaryG(x, z, false);
        expect(Math.abs(g - solved(x, z)) / solved(x, z)).toBeLessThan(1e-4);
      },
    ),
    { numRuns: 200, seed: 5 },
  );
});

it('gives ∂G/∂ln σ²τ consistent with its values (inside a cell: the interpolant is not C¹ across cells)', () => {
  for (const [x, z] of [
    [-6, -0.93],
    [-3, 0.61],
    [-12, -9.07],
  ] as const) {
    boundaryG(x, z, true);
    const slope = tableOut[0]!;
    const h = 1e-4;
    expect(slope).toBeCloseTo((boundaryG(x, z + h, false) - boundaryG(x, z - h, false)) / (2 * h), 6);
  }
});

it('answers NaN outside the table, for the caller to solve directly', () => {
  expect(boundaryG(-5, 4, false)).toBeNaN(); // σ²τ = e⁴ > e^2.5
  expect(boundaryG(-0.5, -2, false)).toBeNaN(); // rτ = e^−0.5
});

it('holds this solver’s entries (a re-solved sample agrees to 1e-9) over the whole band', () => {
  expect(data.grid).toEqual([...GRID]);
  const [, , NX, , , NZ] = GRID;
  let present = 0;
  for (let i = 0; i < NX; i++) {
    const band = bandOf(i);
    for (let j = band?.[0] ?? 0; band && j <= band[1]; j++) if (tableEntry(i * NZ + j) >= 0) present++;
  }
  expect(present).toBeGreaterThan(4000);
  fc.assert(
    fc.property(fc.nat(NX - 1), fc.nat(NZ - 1), (i, j) => {
      const band = bandOf(i);
      if (!band || j < band[0] || j > band[1]) return;
      const g = solveEntry(i, j);
      expect(Math.abs(tableEntry(i * NZ + j) - g)).toBeLessThanOrEqual(1e-9 * g);
    }),
    { numRuns: 60, seed: 17 },
  );
});
