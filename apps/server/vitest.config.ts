import { defineConfig } from 'vitest/config';
import LongFirst from './test/longFirst.ts';

/** The same suites run on embedded PGlite and on a real PostgreSQL started for the run. */
export default defineConfig({
  test: {
    // Limits that catch a hang, not a loaded machine: a suite's set-up (a server, tenants, hashed
    // passwords) took over 60 s while eight agents shared the 2 cores.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: 'silent' },
    setupFiles: ['test/setupDb.ts'],
    // Two files at a time on the 2 cores, the minutes-long fault suites started first (test/longFirst.ts).
    maxWorkers: 2,
    // A worker runs its files one after another in one process (TEST_ISOLATE=on: a process per file, as before):
    // the server's modules and PGlite's WebAssembly load once per worker instead of once per file — the pglite
    // project 1.7× faster back to back (docs/testing.md). Each file still opens its own database (test/db.ts,
    // test/setupDb.ts), so no file sees another's rows.
    isolate: process.env.TEST_ISOLATE === 'on',
    sequence: { sequencer: LongFirst },
    projects: [
      {
        extends: true,
        // *.pg.test.ts need PostgreSQL itself (several connections: advisory locks, LISTEN/NOTIFY).
        test: {
          name: 'pglite',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.pg.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/pgliteTemplate.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [
            'src/**/*.db.test.ts',
            'src/**/*.pg.test.ts',
            'src/**/*.api.test.ts',
            'src/platform/views/**/*.test.ts',
          ],
          // TEST_CHAOS=apart: the chaos CI form left out, run by `pnpm test:chaos` beside the browser suites
          // (scripts/test-all.sh).
          exclude: process.env.TEST_CHAOS === 'apart' ? ['src/faults/chaos.pg.test.ts'] : [],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['test/globalSetup.ts'],
        },
      },
    ],
  },
});
