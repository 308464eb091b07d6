/** Several server instances starting at once on one PostgreSQL (sqlObjects.ts takes the migrator's lock). */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { SQL_OBJECTS } from '../../modules';
import { migrate, openDatabase } from './database';
import { applySqlObjects, view } from './sqlObjects';

it('four instances starting at once: every start succeeds, the objects are applied once', async () => {
  const instances = await Promise.all(
    Array.from({ length: 4 }, () => openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' })),
  );
  try {
    await Promise.all(instances.map((d) => migrate(d, { sqlObjects: SQL_OBJECTS })));
    const { rows } = await sql<{
      n: string;
    }>`select count(*) as n from pg_views where schemaname = current_schema()`.execute(instances[0]!);
    expect(Number(rows[0]!.n)).toBe(SQL_OBJECTS.filter((o) => o.kind === 'view').length);

    const changed = [...SQL_OBJECTS, view('v_probe', 'select id from tenants')];
    const results = await Promise.all(instances.map((d) => applySqlObjects(d, changed)));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
  } finally {
    await Promise.all(instances.map((d) => d.destroy()));
  }
});
