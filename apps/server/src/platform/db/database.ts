import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_identity';
import * as m003 from './migrations/003_trading';
import * as m004 from './migrations/004_view_indexes';
import * as m005 from './migrations/005_hardening';
import * as m006 from './migrations/006_fixing_terms';
import * as m007 from './migrations/007_conditional_orders';
import * as m008 from './migrations/008_contract_traded_amount';
import * as m009 from './migrations/009_pricer_data_versions';
import * as m010 from './migrations/010_orders_cover_instrument';
import * as m011 from './migrations/011_controls';
import * as m012 from './migrations/012_margin';
import * as m013 from './migrations/013_confirmations_ack';
import * as m014 from './migrations/014_customer_identity';
import * as m015 from './migrations/015_login_failures';
import * as m017 from './migrations/017_contract_lifecycle';
import * as m018 from './migrations/018_notifications';
import * as m019 from './migrations/019_notifications_live';
import * as m020 from './migrations/020_orders_conditional';
import * as m021 from './migrations/021_margin_check';
import * as m022 from './migrations/022_money_locks';
import * as m023 from './migrations/023_margin_defaults';
import * as m025 from './migrations/025_fee_receivables';
import * as m027 from './migrations/027_staff_approvals';
import * as m029 from './migrations/029_agreements';
import * as m030 from './migrations/030_authorised_pricers';
import * as m028 from './migrations/028_roll_applications';
import * as m032 from './migrations/032_roll_auto_pricing';
import * as m031 from './migrations/031_average_basis';
import { PGliteDialect } from './pgliteDialect';
import type { Logger } from '../logger';
import { guardedPool } from './resilience';
import { applySqlObjects, type SqlObject } from './sqlObjects';
import type { DB } from './schema';

export type Database = Kysely<DB>;

const NUMERIC = 1700;
const INT8 = 20;
/** date columns stay 'YYYY-MM-DD' text: a calendar day has no time zone (pg would make a local-midnight Date). */
const DATE = 1082;

/**
 * PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite in dataDir (`memory://` for
 * tests). numeric and bigint come back as JS numbers: prices have at most 4 decimals and ids
 * stay far below 2^53.
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PGlite: start from this dump of a data directory (`dumpDataDir`) instead of an empty one; the tests' migrated template. */
  loadDataDir?: Blob;
  /** PostgreSQL: see db/resilience.ts. Defaults 5 s and 10 s. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  logger?: Logger;
}): Promise<Database> {
  if (opts.databaseUrl) {
    pg.types.setTypeParser(NUMERIC, parseFloat);
    pg.types.setTypeParser(INT8, (v) => Number(v));
    pg.types.setTypeParser(DATE, (v) => v);
    const pool = guardedPool(opts.databaseUrl, {
      max: Number(process.env.PG_POOL_SIZE ?? 20),
      // Off behind a pooler that cannot carry named statements (PgBouncer before 1.21 in transaction mode).
      preparedStatements: process.env.PG_PREPARED_STATEMENTS === 'off' ? false : {},
      connectTimeoutMs: opts.connectTimeoutMs ?? 5_000,
      statementTimeoutMs: opts.statementTimeoutMs ?? 10_000,
      ...(opts.logger ? { logger: opts.logger } : {}),
    });
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  const pglite = new PGlite(opts.dataDir, {
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    parsers: { [NUMERIC]: (v: string) => parseFloat(v), [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  return new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
}

const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_identity': m002,
  '003_trading': m003,
  '004_view_indexes': m004,
  '005_hardening': m005,
  '006_fixing_terms': m006,
  '007_conditional_orders': m007,
  '008_contract_traded_amount': m008,
  '009_pricer_data_versions': m009,
  '010_orders_cover_instrument': m010,
  '011_controls': m011,
  '012_margin': m012,
  '013_confirmations_ack': m013,
  '014_customer_identity': m014,
  '015_login_failures': m015,
  '017_contract_lifecycle': m017,
  '018_notifications': m018,
  '019_notifications_live': m019,
  '020_orders_conditional': m020,
  '021_margin_check': m021,
  '022_money_locks': m022,
  '023_margin_defaults': m023,
  '025_fee_receivables': m025,
  '027_staff_approvals': m027,
  '029_agreements': m029,
  '028_roll_applications': m028,
  '030_authorised_pricers': m030,
  '031_average_basis': m031,
  '032_roll_auto_pricing': m032,
};

/**
 * Versioned migrations, run on start; a failure stops the server. Then the views, functions and triggers
 * (`sqlObjects`: every capability's, modules/index.ts SQL_OBJECTS) as repeatable definitions (sqlObjects.ts).
 * `to`: up to that migration only, and no SQL objects (tests of a migration).
 */
export async function migrate(db: Database, opts: { to?: string; sqlObjects?: readonly SqlObject[] } = {}) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await (opts.to ? migrator.migrateTo(opts.to) : migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${String(error)}`, { cause: error });
  }
  if (opts.sqlObjects && !opts.to) await applySqlObjects(db, opts.sqlObjects);
  return results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
}
