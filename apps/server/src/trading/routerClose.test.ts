import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { expect, it } from 'vitest';
import type { DB } from '../platform/db/schema';
import { OrderRouter } from './router';

/**
 * A failover breaks the coordinator's connection and the sweep's query in the same moment: the service then
 * closes the router (`void r.close(0)`, trading/service.ts) while its sweep is failing. The close must not
 * reject: nobody awaits it, and an unhandled rejection ends the process (close-with-grace) — the chaos run
 * (docs/ha.md) saw a replica exit so with "Connection terminated unexpectedly" from OrderRouter.doSweep.
 */
const broken: Driver = {
  init: async () => {},
  acquireConnection: () => Promise.reject(new Error('Connection terminated unexpectedly')),
  beginTransaction: async () => {},
  commitTransaction: async () => {},
  rollbackTransaction: async () => {},
  releaseConnection: async (_: DatabaseConnection) => {},
  destroy: async () => {},
};
const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => broken,
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

it('closes without rejecting while its sweep fails on a broken database connection', async () => {
  const router = new OrderRouter({ db, tenantId: 1 });
  const sweep = router.sweep();
  const closed = router.close(0);
  await expect(sweep).rejects.toThrow('Connection terminated unexpectedly');
  await expect(closed).resolves.toBeUndefined();
});
