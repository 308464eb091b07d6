/**
 * Counts failed sign-ins per key in a sliding window, in memory (one process; a restart forgets).
 * Bounded: beyond `maxKeys` the stalest keys are dropped.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const fresh = times.filter((t) => now - t < this.windowMs);
    if (fresh.length) this.failures.set(key, fresh);
    else this.failures.delete(key);
    return fresh;
  }

  isLimited(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.max;
  }

  fail(key: string, now = Date.now()) {
    const times = this.recent(key, now);
    times.push(now);
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) this.prune(now);
  }

  reset(key: string) {
    this.failures.delete(key);
  }

  private prune(now: number) {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
    // Map iteration follows insertion order, and fail() re-inserts: the first keys are the stalest.
    for (const key of this.failures.keys()) {
      if (this.failures.size <= this.maxKeys) break;
      this.failures.delete(key);
    }
  }
}
