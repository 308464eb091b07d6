import pg from 'pg';
import type { Logger } from '../logger';
import { isStalePreparedStatement, StatementNames, type PreparedStatementOptions } from './preparedStatements';

/**
 * Surviving the database (docs/security.md): a PostgreSQL restart, failover, idle-connection kill
 * or freeze never stops the server. Broken connections are logged and dropped (the next query
 * opens a new one), and every wait on the database is bounded so that callers fail fast with a
 * 503 instead of hanging.
 */
export const DB_MESSAGES = {
  unavailable: '数据库暂时不可用，请稍后重试',
  timeout: '数据库响应超时，请稍后重试',
  noAnswer: (seconds: number) => `数据库在 ${seconds} 秒内未应答`,
} as const;

export class DatabaseUnavailableError extends Error {
  readonly code = 'db_unavailable';
}

export interface PoolOptions {
  max: number;
  /** Getting a connection (opening one, or waiting for a free one), ms. */
  connectTimeoutMs: number;
  /** PostgreSQL's statement_timeout, ms. */
  statementTimeoutMs: number;
  /**
   * A query without any answer this long (a frozen or unreachable server, where statement_timeout
   * cannot act) has its connection closed. Default statementTimeoutMs + 2 s.
   */
  readTimeoutMs?: number;
  /** Named prepared statements for the process's frequent SQL (preparedStatements.ts); false: none. */
  preparedStatements?: PreparedStatementOptions | false;
  logger?: Logger;
}

/** The part of pg.Pool Kysely's PostgresDialect uses. */
export interface GuardedPool {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  readonly pool: pg.Pool;
}

/** Node errors and pg messages of a connection that failed or broke. */
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs: connection exceptions (08…), shutdown / cannot connect now (57P0x), statement timeout (57014), too many
 * connections, and a write reaching a standby (25006: a failover's old route, docs/ha.md).
 */
const SQLSTATE = /^(08...|57P0[1-4]|57014|53300|25006)$/;
const MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
  'the database system is',
];

/** Whether an error means "the database cannot answer now" (→ 503), as opposed to a bug or bad input. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NODE_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/**
 * A pg.Pool whose errors never escape as unhandled 'error' events (they would end the process)
 * and whose connections and queries are bounded in time.
 */
export function guardedPool(connectionString: string, opts: PoolOptions): GuardedPool {
  const readTimeoutMs = opts.readTimeoutMs ?? opts.statementTimeoutMs + 2000;
  const pool = new pg.Pool({
    connectionString,
    max: opts.max,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    statement_timeout: opts.statementTimeoutMs,
    // A transaction left open by a stalled client does not hold its locks for ever.
    idle_in_transaction_session_timeout: Math.max(opts.statementTimeoutMs * 3, 30_000),
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection killed by a restart or failover: logged; the pool opens a new one when needed.
  pool.on('error', (err) => opts.logger?.warn({ err }, 'database: an idle connection broke; it is replaced'));
  /** Connections closed by us: given back to the pool as broken, so it never hands one out again. */
  const closed = new WeakSet<pg.PoolClient>();
  const names = opts.preparedStatements === false ? undefined : new StatementNames(opts.preparedStatements);

  /*
   * Guarded as the pool makes it, not when `await pool.connect()` resumes: pg reads a TCP chunk in one go, and a
   * backend that dies as the connection opens (a failover: FATAL 57P01 right after ReadyForQuery) has its 'error'
   * emitted in the same turn as the hand-out, after the pool took its own listener off and before the awaiting
   * caller runs — with no listener, an uncaught exception that ended a replica (issue 45, docs/ha.md).
   */
  pool.on('connect', (client) => guard(client));

  function guard(client: pg.PoolClient) {
    // A checked-out connection that breaks emits 'error' too: without a listener that ends the process.
    client.on('error', (err) => opts.logger?.warn({ err }, 'database: a connection broke; it is replaced'));
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const closeConnection = () => {
      closed.add(client);
      // (A client that never connected may have no socket yet.)
      client.connection?.stream?.destroy();
    };
    // The pool's own client, its query replaced in place (pg offers no hook for this).
    const guardedQuery = (...args: unknown[]) => {
      // Kysely's form, query(text, values): named when the text is a frequent one.
      const [text, values] = args;
      const name =
        names && args.length === 2 && typeof text === 'string' && Array.isArray(values)
          ? names.nameFor(client, text, values.length)
          : undefined;
      const result = query(...(name ? [{ name, text, values }] : args));
      if (!(result instanceof Promise)) return result; // callback and stream forms: unused here
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        // No answer at all: the server is frozen or gone. Closing the socket fails the query now, and the
        // pool drops the connection when it comes back (connect() below).
        closeConnection();
      }, readTimeoutMs);
      return result.then(
        (r) => {
          clearTimeout(timer);
          return r;
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (name && isStalePreparedStatement(err)) closeConnection();
          throw timedOut ? new DatabaseUnavailableError(DB_MESSAGES.timeout, { cause: err }) : err;
        },
      );
    };
    Object.assign(client, { query: guardedQuery });
  }

  return {
    pool,
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw new DatabaseUnavailableError(DB_MESSAGES.unavailable, { cause: err });
      }
      // (the pool sets release anew at every checkout.) A connection we closed goes back as broken: the
      // pool destroys it at once instead of handing it to the next caller, whose query would fail too.
      const release = client.release.bind(client);
      client.release = (err) => release(err ?? (closed.has(client) || undefined));
      return client;
    },
    end: () => pool.end(),
  };
}

/** Resolves with `promise`, or rejects with DatabaseUnavailableError after `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError(DB_MESSAGES.noAnswer(ms / 1000))), ms);
    }),
  ]);
}
