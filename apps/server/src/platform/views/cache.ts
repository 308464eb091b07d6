/**
 * Answers of the expensive view queries kept for one polling interval (bench/views.bench.ts, docs/performance.md).
 *
 * At 1,000,000 orders the page's total_count is a COUNT over a tenant's ~10,000 matching rows and the dashboard's
 * group-by-status stats aggregate the same rows: each costs PostgreSQL ~2–3 ms of CPU per request, several times
 * the page itself (~0.5 ms, an index walk that stops after 20 rows). The desk polls every few seconds, so the
 * same (tenant, filter) asks the same COUNT again and again. Only BIG answers are kept, those with at least
 * `minRows` rows behind them: there a total that is up to `ttlMs` old (a few orders off out of thousands) is
 * what a polling client sees anyway, and small answers (a small tenant, a selective filter, every test) are
 * always exact and cheap to compute.
 *
 * In-process, bounded (oldest entries dropped first), keyed by the compiled SQL and its parameters, so the scope
 * (tenant) and every filter value are part of the key and one tenant never sees another's answer.
 */
export interface ViewCacheOptions {
  /** How long an answer is served; the clients' polling interval. */
  ttlMs: number;
  /** Only answers with at least this many rows behind them are kept. */
  minRows?: number;
  /** Most answers kept at once. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const DEFAULT_CACHE_MIN_ROWS = 1000;
const DEFAULT_MAX_ENTRIES = 10_000;

export class ViewCache {
  /** 0 keeps nothing (a benchmark's "without" phase). */
  ttlMs: number;
  readonly minRows: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, { value: unknown; expires: number }>();

  constructor(opts: ViewCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.minRows = opts.minRows ?? DEFAULT_CACHE_MIN_ROWS;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
  }

  static key(q: { sql: string; parameters: readonly unknown[] }): string {
    return `${q.sql}\u0000${JSON.stringify(q.parameters)}`;
  }

  get<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  /** Keeps `value` when `rows` (the rows behind it) reach minRows; returns whether it was kept. */
  offer(key: string, value: unknown, rows: number): boolean {
    if (this.ttlMs <= 0 || rows < this.minRows) return false;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return true;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
