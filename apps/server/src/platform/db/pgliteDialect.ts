import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { isBackground } from './priority';

/**
 * Kysely over embedded PGlite. PGlite is one connection, so the driver hands it out to one
 * caller at a time: a transaction holds it from BEGIN to COMMIT and nothing interleaves.
 * Requests go first: background work (db/priority.ts) gets the connection when no request waits,
 * or once it has waited BACKGROUND_MAX_WAIT_MS, so it is delayed under load but never starved.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter = () => new PostgresAdapter();
  createDriver = (): Driver => new PGliteDriver(this.pglite);
  createIntrospector = (db: Kysely<unknown>) => new PostgresIntrospector(db);
  createQueryCompiler = () => new PostgresQueryCompiler();
}

export const BACKGROUND_MAX_WAIT_MS = 1000;

class PGliteDriver implements Driver {
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  private readonly waitingBackground: { grant: () => void; since: number }[] = [];
  private readonly connection: PGliteConnection;
  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init() {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    // Background work starts on a later turn of the event loop: PGlite answers in microtasks, so a
    // queue of background transactions would otherwise run back to back without a socket being read.
    if (isBackground()) await new Promise((r) => setImmediate(r));
    if (this.busy) {
      // Handed over by the releasing caller (busy stays true).
      await new Promise<void>((grant) =>
        isBackground() ? this.waitingBackground.push({ grant, since: performance.now() }) : this.waiting.push(grant),
      );
    }
    this.busy = true;
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection() {
    const bg = this.waitingBackground[0];
    const next =
      bg && (this.waiting.length === 0 || performance.now() - bg.since >= BACKGROUND_MAX_WAIT_MS)
        ? this.waitingBackground.shift()!.grant
        : this.waiting.shift();
    // On the next turn of the event loop, for the same reason; requests that arrived meanwhile queue first.
    if (next) setImmediate(next);
    else this.busy = false;
  }
  async destroy() {
    await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters use the simple protocol, which (like node-postgres) allows a script of
    // several statements, as migrations are.
    const result =
      compiled.parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql)).at(-1) ?? { rows: [] as R[], affectedRows: undefined })
        : await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows as R[],
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite: streaming queries are not supported');
  }
}
