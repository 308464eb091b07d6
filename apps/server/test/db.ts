/**
 * The test databases. Each project's global setup migrates ONE template database for the run
 * (test/globalSetup.ts); every test file gets a copy of it instead of starting PostgreSQL's
 * initdb and the migrations again (docs/testing.md):
 * - PGlite: the template's data directory, dumped to a file; a test's PGlite starts from it
 *   (`loadDataDir`) in a fraction of a fresh start.
 * - PostgreSQL: `create database … template pfp_template`, in test/setupDb.ts, before each file;
 *   DATABASE_URL names that file's database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { inject } from 'vitest';
import { migrate, openDatabase, type Database } from '../src/platform/db/database';
import { PGliteDialect } from '../src/platform/db/pgliteDialect';
import type { DB } from '../src/platform/db/schema';
import { SQL_OBJECTS } from '../src/modules';
import { createDatabase, PG_TEMPLATE } from './postgres';

/** Global setup, PGlite: migrates an in-memory PGlite and dumps its data directory to a file. */
export async function dumpPgliteTemplate(): Promise<{ file: string; remove: () => void }> {
  const pglite = new PGlite('memory://');
  const db: Database = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate(db, { sqlObjects: SQL_OBJECTS });
    // Written to the data files now, so a copy starts without replaying the log.
    await pglite.exec('checkpoint');
    const dir = mkdtempSync(path.join(tmpdir(), 'pfp-pglite-template-'));
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await db.destroy();
  }
}

/** Global setup, PostgreSQL: the migrated template database every file's database is copied from. */
export async function createPostgresTemplate(clusterUrl: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: await createDatabase(clusterUrl, PG_TEMPLATE), dataDir: '' });
  try {
    await migrate(db, { sqlObjects: SQL_OBJECTS });
  } finally {
    // A template can only be copied while nobody is connected to it.
    await db.destroy();
  }
}

/** The PGlite template dump of the run, read once per file; undefined outside the pglite project. */
let template: Blob | undefined;
export function pgliteTemplate(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  template ??= new Blob([readFileSync(file)]);
  return template;
}

/**
 * A migrated database: in the postgres project the file's own database (DATABASE_URL), otherwise
 * an in-memory PGlite of its own started from the run's template (migrated here when there is none).
 */
export async function openMigratedDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const loadDataDir = url ? undefined : pgliteTemplate();
  if (loadDataDir) return openDatabase({ dataDir: 'memory://', loadDataDir });
  const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  // Nothing to do on a copy of the template; without one (TEST_DB_TEMPLATE=off, another config) all of it.
  await migrate(db, { sqlObjects: SQL_OBJECTS });
  return db;
}

/** A database with no migrations run (tests of a migration): a new database in the run's cluster, or a fresh PGlite. */
export async function openEmptyDatabase(): Promise<Database> {
  if (process.env.TEST_DB === 'postgres') {
    const url = await createDatabase(inject('pgUrl'), `e_${randomBytes(6).toString('hex')}`);
    return openDatabase({ databaseUrl: url, dataDir: '' });
  }
  return openDatabase({ dataDir: 'memory://' });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    /** The file holding the PGlite template's data directory (pglite project). */
    pgliteTemplate: string;
  }
}
