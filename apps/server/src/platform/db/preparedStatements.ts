import { createHash } from 'node:crypto';

/**
 * Named prepared statements for the SQL this process sends again and again (docs/performance.md,
 * "Prepared statements"). Kysely sends every query as an unnamed statement, which PostgreSQL parses
 * and plans each time: at 1,000 fixings/s planning was 3.2 s beside 8.4 s of execution of the
 * submit's statement. A named statement is parsed once per connection, and PostgreSQL plans it once
 * when a generic plan is as good as the custom ones (plan_cache_mode auto; otherwise it keeps
 * planning per call, as before).
 *
 * Named: a text with parameters (one statement: migrations and other scripts stay unnamed), not
 * marked PLANNED_PER_CALL, once the process has sent it `hotAfter` times — the many shapes of a
 * batch (a VALUES list of each length) that come once in a while are not kept on every connection.
 * A connection keeps at most `perConnection` names; past that its statements go unnamed.
 */
export interface PreparedStatementOptions {
  /** The uses in this process after which a text is named. Default 3. */
  hotAfter?: number;
  /** Named statements on one connection at most. Default 200. */
  perConnection?: number;
  /** Texts counted at most (the counts start over when full). Default 5,000. */
  maxTexts?: number;
}

/**
 * Ends a statement built from a caller's input (the view engine's filters, searches and sorts): such a text is
 * never named, so PostgreSQL plans it for the values of each call. A generic plan cannot know them: for the
 * orders page (`pricer_name ilike $4`) it assumed the default 0.5 % of rows match a pattern where half did, and
 * sorted a tenant's matches instead of walking an index and stopping after a page — 8× slower (measured).
 */
export const PLANNED_PER_CALL = '/* planned per call */';

export class StatementNames {
  private readonly hotAfter: number;
  private readonly perConnection: number;
  private readonly maxTexts: number;
  private readonly texts = new Map<string, { uses: number; name?: string }>();
  private readonly prepared = new WeakMap<object, Set<string>>();

  constructor(opts: PreparedStatementOptions = {}) {
    this.hotAfter = opts.hotAfter ?? 3;
    this.perConnection = opts.perConnection ?? 200;
    this.maxTexts = opts.maxTexts ?? 5_000;
  }

  /** The name to send `text` under on `connection`, or undefined to send it unnamed. */
  nameFor(connection: object, text: string, parameterCount: number): string | undefined {
    if (parameterCount === 0 || text.endsWith(PLANNED_PER_CALL)) return undefined;
    let t = this.texts.get(text);
    if (!t) {
      if (this.texts.size >= this.maxTexts) this.texts.clear();
      t = { uses: 0 };
      this.texts.set(text, t);
    }
    if (++t.uses < this.hotAfter) return undefined;
    t.name ??= `pfp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    let names = this.prepared.get(connection);
    if (!names) this.prepared.set(connection, (names = new Set()));
    if (names.has(t.name)) return t.name;
    if (names.size >= this.perConnection) return undefined;
    names.add(t.name);
    return t.name;
  }
}

/**
 * PostgreSQL's answer when a named statement's result columns changed since it was prepared (a
 * migration of another server instance added a column to a `select *`): the connection's statements
 * are stale and it is closed; the next query opens a new one.
 */
export function isStalePreparedStatement(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}
