// Writes src/boundaryTable.data.json: the tabulated ALO exercise boundary (see src/boundaryTable.ts), one collocation
// solve per entry. `pnpm --filter @pfp/quant generate:boundary`; rerun after changing the grid or the solver.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bandOf, GRID, solveEntry } from '../src/boundaryTable.js';

const [, , NX] = GRID;
const rows: number[][] = [];
const t0 = performance.now();
let count = 0;
for (let i = 0; i < NX; i++) {
  const band = bandOf(i);
  if (!band) continue;
  const row = [i, band[0]];
  // Ten significant digits: far below the interpolation error (1e-5), and stable across platforms.
  for (let j = band[0]; j <= band[1]; j++) row.push(Number(solveEntry(i, j).toPrecision(10)));
  count += band[1] - band[0] + 1;
  rows.push(row);
}
const path = resolve(process.cwd(), 'src/boundaryTable.data.json'); // pnpm runs scripts in the package directory
writeFileSync(
  path,
  `{"grid":${JSON.stringify(GRID)},"rows":[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`,
);
console.log(`${count} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${path}`);
