import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema';
import type { ClaimedOrder } from './orderLife';
import {
  applyEvents,
  claimOrders,
  type ClaimRequest,
  type EventOutcome,
  type FillsBooked,
  type OrderEventInput,
} from './apply';
import type { Lane } from './gateway';

/** The most items one transaction takes (a few thousand bind parameters). */
const MAX_BATCH = 500;

/**
 * Group commit: an item added while no flush runs is flushed at once, alone (no added latency);
 * items added while one runs wait for it and then go together in the next. Batches thus grow with
 * the load, and the statements per item shrink with them (docs/performance.md, "Trading at 1,000
 * fixings per second").
 */
export class Batcher<I, R> {
  private waiting: { item: I; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly flush: (items: I[]) => Promise<R[]>) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next() {
    if (this.running || !this.waiting.length) return;
    this.running = true;
    const batch = this.waiting.splice(0, MAX_BATCH);
    void this.flush(batch.map((b) => b.item))
      .then(
        (results) => batch.forEach((b, i) => b.resolve(results[i]!)),
        (err: unknown) => batch.forEach((b) => b.reject(err)),
      )
      .finally(() => {
        this.running = false;
        this.next();
      });
  }
}

/** What every tenant's order router sends to the database, batched over all tenants of the process. */
export interface TradingBatches {
  claim(request: ClaimRequest): Promise<ClaimedOrder | undefined>;
  /** Resolves with the event's outcome, or rejects with why it could not be applied. */
  apply(input: OrderEventInput): Promise<EventOutcome>;
}

/** `fillsBooked`: told of the fills in their booking's transaction (apply.ts). */
export function createTradingBatches(
  db: Kysely<DB>,
  lane: Lane = (fn) => fn(),
  fillsBooked?: FillsBooked,
): TradingBatches {
  const claims = new Batcher<ClaimRequest, ClaimedOrder | undefined>((requests) =>
    lane(() => claimOrders(db, requests)),
  );
  const events = new Batcher<OrderEventInput, { outcome: EventOutcome } | { error: unknown }>((inputs) =>
    lane(async () => {
      try {
        return (await applyEvents(db, inputs, fillsBooked)).map((outcome) => ({ outcome }));
      } catch (err) {
        if (inputs.length === 1) return [{ error: err }];
        // One impossible event (or a lost race) must not hold the others back: one at a time, so that
        // only the culprit fails (and its order is reconciled).
        const one: ({ outcome: EventOutcome } | { error: unknown })[] = [];
        for (const input of inputs) {
          try {
            one.push({ outcome: (await applyEvents(db, [input], fillsBooked))[0]! });
          } catch (e) {
            one.push({ error: e });
          }
        }
        return one;
      }
    }),
  );
  return {
    claim: (request) => claims.add(request),
    async apply(input) {
      const r = await events.add(input);
      if ('error' in r) throw r.error;
      return r.outcome;
    },
  };
}
