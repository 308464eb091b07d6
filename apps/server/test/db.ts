/**
 * The test databases. Each project's global setup migrates ONE template database for the run
 * (test/globalSetup.ts); every test file gets a copy of it instead of starting PostgreSQL's
 * initdb and the migrations again (docs/testing.md):
 * - PGlite: the template's data directory, dumped to a file and unpacked beside it; a test's PGlite
 *   starts on a copy of that directory (in memory: /dev/shm) in a fraction of a fresh start.
 * - PostgreSQL: `create database … template pfp_template`, in test/setupDb.ts, before each file;
 *   DATABASE_URL names that file's database.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { inject } from 'vitest';
import { migrate, openDatabase, type Database } from '../src/platform/db/database';
import { PGliteDialect } from '../src/platform/db/pgliteDialect';
import type { DB } from '../src/platform/db/schema';
import { SQL_OBJECTS } from '../src/modules';
import { createDatabase, PG_TEMPLATE } from './postgres';
import { provided } from './provided';

/** Global setup, PGlite: migrates an in-memory PGlite, dumps its data directory to a file and unpacks it beside. */
export async function dumpPgliteTemplate(): Promise<{ file: string; dir: string; copies: string; remove: () => void }> {
  const pglite = new PGlite('memory://');
  const db: Database = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate(db, { sqlObjects: SQL_OBJECTS });
    // Written to the data files now, so a copy starts without replaying the log.
    await pglite.exec('checkpoint');
    const dir = mkdtempSync(path.join(tmpdir(), 'pfp-pglite-template-'));
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    const data = path.join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    execFileSync('tar', ['-xf', file, '-C', data], { stdio: 'pipe' }); // tar's note on the leading '/' kept out of the output
    // The files' copies: in memory (/dev/shm, a tmpfs) where there is one.
    const copies = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'pfp-test-db-'));
    const remove = () => [dir, copies].forEach((d) => rmSync(d, { recursive: true, force: true }));
    return { file, dir: data, copies, remove };
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
  const file = provided('pgliteTemplate');
  if (!file) return undefined;
  template ??= new Blob([readFileSync(file)]);
  return template;
}

/** The copies of the PGlite template this file opened. */
const opened: string[] = [];

/** Removes the copies this file opened (test/setupDb.ts, after the file's own hooks have closed them). */
export function removeCopies() {
  for (const dir of opened.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A migrated database: in the postgres project the file's own database (DATABASE_URL), otherwise
 * a PGlite of its own on a copy of the run's template (migrated here when there is none).
 */
export async function openMigratedDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const template = url ? undefined : provided('pgliteTemplateDir');
  if (template) {
    // A copy of the unpacked template is the kernel's work: loading the dump into PGlite's in-memory file system
    // cost ~0.5 CPU-s a database, a copy and a start on it ~0.3 (docs/testing.md).
    const dataDir = mkdtempSync(path.join(provided('pgliteCopies') ?? tmpdir(), 'db-'));
    cpSync(template, dataDir, { recursive: true });
    opened.push(dataDir);
    return openDatabase({ dataDir });
  }
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
    /** The PGlite template's data directory, unpacked (pglite project). */
    pgliteTemplateDir: string;
    /** Where the files' copies of it go, removed after the run (pglite project). */
    pgliteCopies: string;
  }
}
