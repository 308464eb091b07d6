/**
 * Tokens whose signature verified, remembered until their exp (and at most `maxMs`, at most
 * `maxEntries` of them, oldest dropped first): the apps send the same token with every poll, and the
 * signature check was a measurable part of each request (docs/performance.md). Only the signature
 * check is saved: what a token's holder may still do (password changes, deactivation) is checked
 * by the callers on every call.
 */
export class RememberedTokens<T> {
  private readonly known = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxMs = 5 * 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** `verify` checks the token at `now` and says until when (ms since the epoch) it is valid. */
  async get(token: string, verify: (now: number) => Promise<{ value: T; until: number }>): Promise<T> {
    const now = this.now();
    const known = this.known.get(token);
    if (known && now < known.until) return known.value;
    if (known) this.known.delete(token);
    const { value, until } = await verify(now);
    if (this.known.size >= this.maxEntries) this.known.delete(this.known.keys().next().value!);
    this.known.set(token, { value, until: Math.min(until, now + this.maxMs) });
    return value;
  }
}
