import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { migrate, openDatabase, type Database } from './database';
import type { Logger } from '../logger';
import type { SqlObject } from './sqlObjects';

/**
 * The server's data on disk and its database, opened safely (docs/security.md):
 * - DATA_DIR and everything in it is the server user's only: directories 0700, files 0600
 *   (umask 077 for what is created later, chmod for what exists).
 * - A database that cannot be opened, or that lost its tables, stops the start with a clear
 *   message. It is never re-created and re-seeded over what was there: a database counts as new
 *   only when it has none of our tables AND this data directory never initialised one.
 */
export class StorageError extends Error {}

/** Tables each migration creates: all must exist once the migration is recorded as applied. */
const TABLES: Record<string, string[]> = {
  '001_initial': ['tenants', 'pricer_users', 'products', 'instruments', 'contracts', 'orders', 'trades', 'audit_log'],
  '002_identity': ['traders', 'oidc_payloads', 'oidc_keys'],
  '003_trading': ['sim_orders', 'sim_trades', 'order_dispatch'],
};
const MARKER = 'database.initialized';

/**
 * Owner-only permissions for the data directory, now and for what the process creates later.
 * PGlite (Emscripten's file system) sets 0666 on the files it creates whatever the umask: the
 * 0700 directories keep those private, and this runs again after the database is opened and at
 * shutdown to put them back to 0600.
 */
export function secureDataDir(dataDir: string) {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== 0o700) chmodSync(p, 0o700);
      for (const e of readdirSync(p)) walk(path.join(p, e));
    } else if (st.isFile() && (st.mode & 0o777) !== 0o600) chmodSync(p, 0o600);
  };
  walk(dataDir);
}

export interface StorageOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  logger?: Logger;
  /** The views, functions and triggers to apply after the migrations (modules/index.ts SQL_OBJECTS); none: tables only. */
  sqlObjects?: readonly SqlObject[];
}

/** Opens, checks and migrates the database; throws StorageError with what to do when it must not be used. */
export async function openStorage(opts: StorageOptions): Promise<Database> {
  secureDataDir(opts.dataDir);
  const embeddedDir = path.join(opts.dataDir, 'db');
  const where = opts.databaseUrl
    ? `PostgreSQL database ${redactUrl(opts.databaseUrl)}`
    : `embedded database ${embeddedDir}`;
  if (!opts.databaseUrl && existsSync(embeddedDir) && readdirSync(embeddedDir).length > 0) {
    if (!existsSync(path.join(embeddedDir, 'PG_VERSION')))
      throw new StorageError(
        `The ${where} cannot be opened: it is not a database directory (no PG_VERSION). Restore it from a backup, or move it away to start with a new database.`,
      );
  }
  let db: Database;
  try {
    db = await openDatabase({
      databaseUrl: opts.databaseUrl,
      dataDir: embeddedDir,
      ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
      ...(opts.statementTimeoutMs ? { statementTimeoutMs: opts.statementTimeoutMs } : {}),
      ...(opts.logger ? { logger: opts.logger } : {}),
    });
    await sql`select 1`.execute(db);
  } catch (err) {
    throw new StorageError(
      `The ${where} cannot be opened: ${(err as Error).message}. Nothing was changed; restore it from a backup or fix the access.`,
      { cause: err },
    );
  }
  try {
    await checkTables(db, where, path.join(opts.dataDir, MARKER));
    await migrate(db, opts.sqlObjects ? { sqlObjects: opts.sqlObjects } : {});
  } catch (err) {
    await db.destroy().catch(() => {});
    throw err;
  }
  writeFileSync(
    path.join(opts.dataDir, MARKER),
    `${JSON.stringify({ database: where, at: new Date().toISOString() })}\n`,
  );
  secureDataDir(opts.dataDir);
  return db;
}

async function checkTables(db: Database, where: string, marker: string) {
  const present = new Set(
    (
      await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema()`.execute(db)
    ).rows.map((r) => r.name),
  );
  if (!present.has('kysely_migration')) {
    const ours = Object.values(TABLES)
      .flat()
      .filter((t) => present.has(t));
    if (ours.length > 0)
      throw new StorageError(
        `The ${where} has tables of this server (${ours.join(', ')}) but no migration record: it is not one this server created. Refusing to start.`,
      );
    if (existsSync(marker))
      throw new StorageError(
        `The ${where} lost its tables: it is empty, but this data directory initialised it before (${marker}: ${readFileSync(marker, 'utf8').trim()}). Refusing to start rather than create and seed a new one over it: restore the database from a backup, or delete ${marker} to start afresh.`,
      );
    return; // a new database
  }
  const applied = (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name);
  const missing = applied.flatMap((m) => TABLES[m] ?? []).filter((t) => !present.has(t));
  if (missing.length > 0)
    throw new StorageError(
      `The ${where} lost its tables: missing tables ${missing.join(', ')}. Refusing to start rather than re-create them empty: restore the database from a backup.`,
    );
}

const redactUrl = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
