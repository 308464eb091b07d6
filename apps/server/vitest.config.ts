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
          env: { TEST_DB: 'postgres' },
          globalSetup: ['test/globalSetup.ts'],
        },
      },
    ],
  },
});
