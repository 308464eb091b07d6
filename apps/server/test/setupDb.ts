import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from './postgres';

// In the `postgres` project every test file gets a database of its own in the run's cluster.
if (process.env.TEST_DB === 'postgres') {
  process.env.DATABASE_URL = await createDatabase(inject('pgUrl'), `t_${randomBytes(6).toString('hex')}`);
} else {
  delete process.env.DATABASE_URL;
}
