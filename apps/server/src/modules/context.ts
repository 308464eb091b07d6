import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OptionMarket } from '../market/feed';
import type { SettlementPrice } from '../market/settlementPrices';
import type { PricerTokens } from '../platform/auth/pricerTokens';
import type { SecretBox } from '../platform/auth/secrets';
import type { TraderVerifier } from '../platform/auth/traderTokens';
import type { Config } from '../platform/config';
import type { Database } from '../platform/db/database';
import type { RootLogger } from '../platform/logger';
import type { QuoteOf } from '../platform/quote';
import type { ViewCache } from '../platform/views/cache';
import type { ViewDef, ViewResult } from '../platform/views/engine';
import type { ViewSource } from '../platform/ws/registry';
import type { FillsBooked } from '../trading/apply';
import type { ConditionTrigger } from '../trading/conditions';
import type { TradingPort } from '../trading/orderLife';
import type { SqlObject } from '../platform/db/sqlObjects';

/** What the routes need, built once in main.ts (or by a test harness). */
export interface AppContext {
  config: Config;
  db: Database;
  secrets: SecretBox;
  pricerTokens: PricerTokens;
  traderVerifier: TraderVerifier;
  tradingPort?: TradingPort;
  /** The trader views' cache of big totals and stats (default: 5 s, the polling interval). */
  viewCache?: ViewCache;
  /** The day's limit band of an instrument (the market-data source); limit prices outside are refused. */
  priceBand?: (symbol: string) => { lower: number; upper: number } | undefined;
  /**
   * Why a fix on `symbol` cannot reach the exchange now (outside the product's sessions, in Chinese), or
   * undefined while it trades. Absent while the market quotes around the clock (MARKET_SESSIONS=always).
   */
  outOfSession?: (symbol: string, at: Date) => string | undefined;
  /** The customer snapshot's market data: last price and the day's limit band (the market-data source). */
  quote?: QuoteOf;
  /** The futures' option chains and their quotes (含权报价's live volatility, docs/pricing.md). */
  optionMarket?: Pick<OptionMarket, 'getQuote' | 'optionChain'>;
  /** The tenant's trading gateway: `ok` when connected and logged in. */
  gatewayStatus?: (tenantId: number) => { status: 'ok' | 'error'; message?: string };
  /** A real account's positions (the exposure page's hedge); undefined when not known on this instance. */
  hedgePositions?: (tenantId: number) => { instrument_id: string; long: number; short: number }[] | undefined;
  /** The trader saved the settings: (re)connect the tenant's gateway. */
  onProfileSaved?: (tenantId: number) => void;
  /** The embedded OpenID provider's routes (absent when OIDC_ISSUER points elsewhere). */
  identity?: { register(app: FastifyInstance): Promise<void> };
  /** The simulated market's shock (SIM_MARKET_HOOKS=1 only: the end-to-end suites); absent otherwise. */
  shiftMarket?: (symbol: string, factor: number) => { last_price: number } | undefined;
  /**
   * Given only with the market shock (SIM_MARKET_HOOKS=1, the simulated exchange): POST
   * /api/test/average-fixings runs the average-fixing job once at a chosen instant.
   */
  simAverageFixings?: boolean;
  /**
   * The market's settlement prices of a trading day known now, at least of `symbols` (the simulated
   * exchange's, or a DIFF feed's quotes: market/settlementPrices.ts); none before the day's close.
   * Absent (a harness): 结算价 average contracts book only at stored prices (docs/fixing.md).
   */
  settlementPrices?: (day: string, symbols: readonly string[]) => SettlementPrice[];
  /** What a booking of fills also records (the capabilities' hooks, modules/index.ts tradingHooks). */
  fillsBooked?: FillsBooked;
  /** What the trader app needs to find its identity provider. */
  oidc: { authority: string; clientId: string };
}

/** The signed-in trader of a request (its route scope has verified the token). */
export interface TraderCaller {
  /** The trader's subject at the identity provider (the audit log's actor). */
  sub(req: FastifyRequest): string;
  /** The trader's company (403 while the trader has saved no settings). */
  tenantOf(req: FastifyRequest): Promise<number>;
  /**
   * A database view limited to the trader's company (`scope` from its id; default: its own rows),
   * its big totals and stats kept as long as the console polls (platform/views/cache.ts).
   */
  view(
    req: FastifyRequest,
    def: ViewDef,
    body: Record<string, unknown>,
    scope?: (tenantId: number) => Record<string, string | number>,
  ): Promise<ViewResult>;
}

/** The signed-in customer of a request (its route scope has verified the session). */
export interface PricerCaller {
  who(req: FastifyRequest): { tenantId: number; pricerId: number };
  /** The audit log's actor: `pricer:<id>`. */
  actor(req: FastifyRequest): string;
  /** The signed-in login: its username and its 授权点价人 (null: none on file; docs/authorised-pricers.md). */
  login(req: FastifyRequest): { username: string; person: { id: number; name: string; active: boolean } | null };
}

/**
 * A capability's calls, by audience. The app registers each audience once, behind its guard, and
 * hands every capability its scope: a module only says what its calls do.
 */
export interface Capability {
  /** Calls anyone may make (login, the company name, market lists, health). */
  open?(app: FastifyInstance, ctx: AppContext): void | Promise<void>;
  trader?(app: FastifyInstance, ctx: AppContext, caller: TraderCaller): void;
  pricer?(app: FastifyInstance, ctx: AppContext, caller: PricerCaller): void;
  /** Its views, functions and triggers (its `sql.ts`), applied after the versioned migrations in list order. */
  sql?: readonly SqlObject[];

  // What it runs while the server runs (main.ts only, not the API tests' harness): modules/index.ts
  // builds every capability's sources, then its jobs, in list order, and stops them in reverse.
  /** Its WebSocket sources (platform/ws), each by its view name, and the work behind them. */
  sources?(ctx: RunContext): Sources;
  /** Its periodic jobs (timers: platform/every.ts). */
  jobs?(ctx: RunContext): Job[];
  /** What it adds to trading, handed to the trading service (trading calls no capability). */
  trading?: TradingHooks;
}

/** What a capability's sources and jobs may use: the calls' context and the process's market and logger. */
export interface RunContext extends AppContext {
  /** The market-data feed (the simulated exchange or DIFF): quotes, ticks, option chains. */
  market: OptionMarket;
  logger: RootLogger;
}

/** Work a capability runs on its own while the server runs. */
export interface Job {
  /** At start-up, after the demo data and before trading starts; awaited (an expiry run, say). */
  start?(): Promise<void>;
  /** No more runs; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/** A capability's WebSocket sources by view name; stopped as a job is. */
export interface Sources extends Job {
  sources: [name: string, source: ViewSource][];
}

/** A capability's hooks into trading (modules/index.ts `tradingHooks` gathers them). */
export interface TradingHooks {
  /** What a 条件单's trigger does; exactly one capability gives it. */
  trigger?: ConditionTrigger;
  /** What else a booking of fills records, in the booking's transaction. */
  fillsBooked?: FillsBooked;
}
