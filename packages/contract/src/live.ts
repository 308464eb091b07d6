import { z } from 'zod';
import { marketEntry, snapshot } from './pricer';

/**
 * The live desk (issue 33, docs/live.md): views of the WebSocket view protocol (ws.ts) on /ws that push what the
 * desks used to poll. Each stream kind is a field of the view's patch; a new kind (e.g. notifications) is a new
 * field and a new branch of the server's hub, the protocol stays as it is.
 *
 * - `pricer_desk` (a customer's token): `version` (the customer's data version, migration 009), `snapshot` (the
 *   my-data-snapshot answer, re-read whenever the version moves) and `quotes` (the market entries of the customer's
 *   instruments, per tick).
 * - `trader_desk` (a trader's token): `version` (the sum of the company's customers' data versions); the console
 *   re-reads its orders, counts and exposure when it moves.
 *
 * Resume: a subscription names the `since` version its client holds; the initial answer carries the snapshot only
 * when the version moved since (a missed range is re-read whole: the snapshot is the state, not a log).
 */
export const LIVE_VIEWS = { pricerDesk: 'pricer_desk', traderDesk: 'trader_desk' } as const;

/** A data version: a decimal integer as a string (PostgreSQL bigint sums exceed 2^53 in principle). */
const version = z.string().regex(/^\d{1,30}$/, { error: 'since 应为数据版本号（非负整数）' });

export const pricerDeskParams = z.object({
  /** The data version the client holds (absent: none, the snapshot is sent). */
  since: version.optional(),
  /** The customer the desk is of: must be the token's own (another customer's is refused, nothing sent). */
  user_id: z.number({ error: 'user_id 应为整数' }).int({ error: 'user_id 应为整数' }).optional(),
});
export type PricerDeskParams = z.input<typeof pricerDeskParams>;

/** A quote of the desk: the snapshot's market entry, with the server time of the tick (epoch ms). */
export const liveQuote = marketEntry.extend({ tick_time: z.number() });
export type LiveQuote = z.input<typeof liveQuote>;

export const pricerDeskPatch = z.object({
  version: version.optional(),
  snapshot: snapshot.optional(),
  quotes: z.record(z.string(), liveQuote).optional(),
  /** The session ended (customer deactivated or password reset): the desk falls back to its HTTP calls, which say why. */
  ended: z.boolean().optional(),
});
export type PricerDeskPatch = z.input<typeof pricerDeskPatch>;

export const traderDeskParams = z.object({ since: version.optional() });
export const traderDeskPatch = z.object({ version: version.optional() });
export type TraderDeskPatch = z.input<typeof traderDeskPatch>;
