import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts', 'src/identity/addTrader.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Workspace packages ship TypeScript source: bundle them; npm dependencies stay external.
  noExternal: [/^@pfp\//],
});
