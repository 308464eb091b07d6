import { z } from 'zod';
import { pricerAccount } from './margin';
import { notificationsPage } from './notifications';
import { marketEntry, snapshot } from './pricer';
import { anyViewPage } from './view';

/**
 * The live desk (issue 33, docs/live.md): views of the WebSocket view protocol (ws.ts) on /ws that push what the
 * desks used to poll. Each stream kind is a field of the view's patch; a new kind (e.g. notifications) is a new
 * field and a new branch of the server's hub, the protocol stays as it is.
 *
 * - `pricer_desk` (a customer's token): `version` (the customer's data version, migration 009), `snapshot` (the
 *   my-data-snapshot answer without its orders, re-read whenever the version moves), with it the open contract's
 *   `orders` and `conditionals` and the `notifications` (what the desk shows: no HTTP re-read), and `quotes` (the
 *   market entries of the customer's instruments, per tick), and `account` (the snapshot's account marked to the
 *   market again on the ticks that move it).
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
  /** The contract the desk has open: its latest orders and 条件单 come with every change (no HTTP re-read). */
  contract_id: z
    .number({ error: 'contract_id 应为正整数' })
    .int({ error: 'contract_id 应为正整数' })
    .positive({ error: 'contract_id 应为正整数' })
    .optional(),
  /** How many of them: the desk's table (default 50). */
  limit: z
    .number({ error: 'limit 应为 1 至 200 的整数' })
    .int({ error: 'limit 应为 1 至 200 的整数' })
    .min(1, { error: 'limit 应为 1 至 200 的整数' })
    .max(200, { error: 'limit 应为 1 至 200 的整数' })
    .optional(),
});
export type PricerDeskParams = z.input<typeof pricerDeskParams>;

/** A quote of the desk: the snapshot's market entry, with the server time of the tick (epoch ms). */
export const liveQuote = marketEntry.extend({ tick_time: z.number() });
export type LiveQuote = z.input<typeof liveQuote>;

/** The desk's state as pushed: the snapshot without its orders (the desk shows the open contract's, pushed apart). */
export const deskSnapshot = snapshot.omit({ orders: true });
export type DeskSnapshot = z.input<typeof deskSnapshot>;

export const pricerDeskPatch = z.object({
  version: version.optional(),
  snapshot: deskSnapshot.optional(),
  /** The open contract's latest orders: my-orders' page for {contract_id, newest first, 0…limit}. */
  orders: anyViewPage.optional(),
  /** The open contract's latest 条件单: my-conditional-orders' page for the same. */
  conditionals: anyViewPage.optional(),
  /** The bell: the notifications answer ({limit: 50}). */
  notifications: notificationsPage.optional(),
  quotes: z.record(z.string(), liveQuote).optional(),
  /**
   * The customer's account marked to the market again (issue 41): sent with a tick that moves its figures
   * (floating P/L, available, the call) and with every snapshot; it replaces the snapshot's `account`.
   */
  account: pricerAccount.optional(),
  /** The session ended (customer deactivated or password reset): the desk falls back to its HTTP calls, which say why. */
  ended: z.boolean().optional(),
});
export type PricerDeskPatch = z.input<typeof pricerDeskPatch>;

export const traderDeskParams = z.object({ since: version.optional() });
export const traderDeskPatch = z.object({ version: version.optional() });
export type TraderDeskPatch = z.input<typeof traderDeskPatch>;
