import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { removeCopies } from './db';
import { createDatabase, PG_TEMPLATE } from './postgres';

// In the `postgres` project every test file gets a database of its own in the run's cluster: a copy
// of the migrated template (test/db.ts).
if (process.env.TEST_DB === 'postgres') {
  const template = process.env.TEST_DB_TEMPLATE === 'off' ? undefined : PG_TEMPLATE;
  process.env.DATABASE_URL = await createDatabase(inject('pgUrl'), `t_${randomBytes(6).toString('hex')}`, template);
} else {
  delete process.env.DATABASE_URL;
  // The file's PGlite copies (test/db.ts); this hook, registered first, runs after the file's own.
  afterAll(removeCopies);
}
