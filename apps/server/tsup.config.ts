import { defineConfig } from 'tsup';

export default defineConfig({
  // The curve worker is its own file: worker threads load it by URL (src/modules/volatility/curveWorkers.ts).
  entry: ['src/main.ts', 'src/identity/addTrader.ts', 'src/modules/volatility/curveWorker.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Workspace packages ship TypeScript source: bundle them; npm dependencies stay external.
  noExternal: [/^@pfp\//],
});
