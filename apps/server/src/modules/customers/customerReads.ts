/**
 * The customer desk's polls (snapshot, my-orders) answered from memory while nothing of that customer
 * changed. Every change to a customer's orders or contracts raises its data version in the same
 * transaction (database triggers, platform/db/dataVersions.ts), and the session check reads the version on every
 * call; an answer is reused only by a call that saw the version it was read at. A change is therefore
 * seen by the next call after its commit, on every server instance, whichever code made it — nothing
 * here has to be told. What does not come from those rows (market data, the clock's fixing checks,
 * the timestamp) is computed for every call by the caller.
 *
 * Per process, bounded to `maxEntries` answers, the least recently asked dropped first (a snapshot
 * holds up to 200 orders, some 200 KB: 1,000 answers are at most ~200 MB). An answer read while a change
 * committed may already carry the change under the older version: newer, never older, than what the
 * call asked for.
 */
export class CustomerReads {
  private readonly answers = new Map<string, { version: string; value: Promise<unknown> }>();

  constructor(private readonly maxEntries = 1_000) {}

  /** `key` names the customer and the question (the call and its parameters). */
  get<T>(key: string, version: string, load: () => Promise<T>): Promise<T> {
    const hit = this.answers.get(key);
    if (hit?.version === version) {
      this.answers.delete(key); // (to the end of the order: recently asked)
      this.answers.set(key, hit);
      return hit.value as Promise<T>;
    }
    const value = load();
    this.answers.delete(key);
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, { version, value });
    // A failed read is not an answer: the next call reads again.
    value.catch(() => {
      if (this.answers.get(key)?.value === value) this.answers.delete(key);
    });
    return value;
  }
}
