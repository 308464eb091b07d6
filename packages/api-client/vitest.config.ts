import { defineConfig } from 'vitest/config';

// Property tests and jsdom renders are CPU-bound: give them room on a loaded 2-core CI machine.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 60_000 } });
