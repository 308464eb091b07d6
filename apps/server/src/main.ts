import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { PricerTokens } from './platform/auth/pricerTokens';
import { deriveKey, loadSecret, SecretBox } from './platform/auth/secrets';
import { TraderVerifier } from './platform/auth/traderTokens';
import { loadConfig } from './platform/config';
import { createLogger } from './platform/logger';
import { openStorage, secureDataDir, StorageError } from './platform/db/storage';
import { addTrader, createIdentityProvider, passwordChangedAt } from './identity';
import { findInstrument, productOfInstrument } from './market/catalogue';
import { outOfSessionText } from './market/calendar';
import { diffFeed, type MarketFeed } from './market/feed';
import { SimExchange } from './market/simExchange';
import { DiffMarketData } from './diff/marketData';
import { DiffTradeGateway } from './diff/tradeGateway';
import { createTradingService, pgCoordinator } from './trading';
import { seedCatalogue } from './seed/catalogue';
import { DEMO_TRADER_SUB, hintFirstTrader, seedDemo } from './seed/demo';
import { logAppsSetting } from './platform/static/apps';
import type { AppContext } from './modules/context';
import { runCapabilities, SQL_OBJECTS, tradingHooks } from './modules';

/** The most a shutdown may take (close-with-grace then exits 1): within the 10 s a `docker stop` gives. */
const SHUTDOWN_TIMEOUT_MS = 9_000;
/** How long a closing server still answers requests on their way before it stops accepting (platform/http/close.ts). */
const SHUTDOWN_DRAIN_MS = 500;

const config = loadConfig();
// The one logger, first: the HTTP server and every resource log through it (platform/logger.ts).
const log = createLogger({ level: config.logLevel });
const db = await openStorage({
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  connectTimeoutMs: config.dbConnectTimeoutMs,
  statementTimeoutMs: config.dbStatementTimeoutMs,
  logger: log.child({ module: 'database' }),
  sqlObjects: SQL_OBJECTS,
}).catch((err: unknown) => {
  // A clear message and no start: never a new database over a lost one (db/storage.ts).
  console.error(err instanceof StorageError ? `快期点价宝 cannot start: ${err.message}` : err);
  process.exit(1);
});
await seedCatalogue(db);
const secret = loadSecret(config.secretKey, config.dataDir);

// Traders sign in at OIDC_ISSUER (a Keycloak realm), or at the embedded provider.
const identity = config.oidcIssuer
  ? undefined
  : await createIdentityProvider({
      db,
      origin: config.publicUrl,
      clientId: config.oidcClientId,
      audience: config.oidcAudience,
      accessTokenTtl: config.accessTokenTtl,
      cookieKeys: [deriveKey(secret, 'oidc-cookies').toString('base64url')],
      keyBox: new SecretBox(`${secret}:oidc-keys`),
      proxy: config.trustProxy !== false,
      logger: log,
      loginGuard: {
        maxFailures: config.loginMaxFailures,
        lockMs: config.loginLockMinutes * 60_000,
        addressFailures: config.loginRateLimit,
      },
    });
const issuer = config.oidcIssuer ?? identity!.issuer;

// Market data: the built-in simulated exchange (trading around the clock by default), or a DIFF feed.
const market: MarketFeed =
  config.marketSource === 'diff'
    ? diffFeed(new DiffMarketData({ url: config.mdUrl!, logger: log.child({ module: 'market' }) }))
    : new SimExchange({
        seed: config.marketSeed,
        sessions: config.marketSessions,
        logger: log.child({ module: 'market' }),
      });
market.start();
const traderVerifier = new TraderVerifier({
  issuer,
  audience: config.oidcAudience,
  jwks: identity ? () => identity.jwks() : new URL(config.oidcJwksUrl ?? `${issuer}/protocol/openid-connect/certs`),
  // The embedded provider's traders: a password change ends the sessions (identity/traders.ts).
  ...(identity ? { passwordChangedAt: (sub: string) => passwordChangedAt(db, sub) } : {}),
});
const pricerTokens = new PricerTokens(secret);
const secrets = new SecretBox(secret);

const tradingLogger = log.child({ module: 'trading' });

// Each tenant's orders go to the simulated broker (is_sim) or to its real account over DIFF. On
// PostgreSQL several instances may share the database: each tenant's gateway runs in one of them.
// The capabilities' hooks: what a 条件单's trigger does, what a booking of fills also records.
const hooks = tradingHooks();
const trading = createTradingService({
  ...hooks,
  db,
  logger: tradingLogger,
  dbConcurrency: config.tradingDbConcurrency,
  ...(config.databaseUrl ? { coordinator: pgCoordinator(config.databaseUrl, tradingLogger) } : {}),
  quotes: {
    getQuote: (s) => market.getQuote(s),
    onTick: (cb) => market.onTick((q) => cb([...q])),
    priceTick: (s) => findInstrument(s)?.tick,
  },
  ...(config.tradeUrl
    ? {
        createRealGateway: (t) =>
          new DiffTradeGateway({
            url: config.tradeUrl!,
            // TqSdk's broker ids are the list's entries without the space: 'H 华泰期货' → 'H华泰期货'.
            brokerId: (t.broker_name ?? '').replace(/\s+/g, ''),
            userName: t.futures_account ?? '',
            password: t.futures_password_enc ? secrets.decrypt(t.futures_password_enc) : '',
            logger: tradingLogger,
          }),
      }
    : {}),
});

const ctx: AppContext = {
  config,
  db,
  secrets,
  tradingPort: trading.events,
  gatewayStatus: (tenantId) => trading.status(tenantId),
  onProfileSaved: (tenantId) => void trading.reconnect(tenantId),
  hedgePositions: (tenantId) => trading.positions(tenantId),
  pricerTokens,
  traderVerifier,
  priceBand: (symbol) => {
    const q = market.getQuote(symbol);
    return q && q.upper_limit > 0 ? { lower: q.lower_limit, upper: q.upper_limit } : undefined;
  },
  quote: (symbol) => market.getQuote(symbol),
  // Fixes only in the product's sessions when the market keeps them (a DIFF feed, MARKET_SESSIONS=real).
  ...(config.marketSource === 'diff' || config.marketSessions === 'real'
    ? {
        outOfSession: (symbol: string, at: Date) => {
          const spec = findInstrument(symbol, at);
          return spec ? outOfSessionText(productOfInstrument(spec), at) : undefined;
        },
      }
    : {}),
  optionMarket: market,
  // The day's settlement prices (结算价 average contracts): the simulated exchange's, or a DIFF feed's quotes.
  settlementPrices: (day, symbols) => market.settlementPrices(day, symbols),
  ...(hooks.fillsBooked ? { fillsBooked: hooks.fillsBooked } : {}),
  ...(config.simMarketHooks && market instanceof SimExchange
    ? {
        shiftMarket: (symbol: string, factor: number) => market.shift(symbol, factor),
        simAverageFixings: true,
      }
    : {}),
  oidc: { authority: issuer, clientId: config.oidcClientId },
  ...(identity ? { identity } : {}),
};
const app = await buildApp(ctx, { logger: log, drainMs: SHUTDOWN_DRAIN_MS });

// The capabilities' WebSocket sources (the view protocol) and periodic jobs, built in list order
// (modules/index.ts); their first runs come below, before trading starts.
const capabilities = runCapabilities(app, { ...ctx, market, logger: log });

/*
 * Shutdown (SIGTERM, SIGINT, …: close-with-grace) is app.close(), within SHUTDOWN_TIMEOUT_MS:
 * 1. the preClose hooks: answers say `Connection: close` and the server goes on answering for
 *    SHUTDOWN_DRAIN_MS (platform/http/close.ts); the WebSocket server closes (platform/ws/server.ts);
 * 2. Fastify's own onClose hook: no more connections accepted, the requests in hand answered. Fastify
 *    adds it when the server starts listening, i.e. after this one, and onClose hooks run last-added first;
 * 3. this hook: the rest in order, once no request can use it any more.
 */
app.addHook('onClose', async () => {
  await capabilities.stop(); // in the reverse of their order
  await trading.stop();
  market.stop();
  await db.destroy();
  secureDataDir(config.dataDir);
});
closeWithGrace(
  {
    delay: SHUTDOWN_TIMEOUT_MS,
    logger: log,
    onTimeout: (ms) => log.error({ ms }, 'shutdown took too long: exiting'),
  },
  async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await app.close();
  },
);

if (config.seedDemo) {
  if (identity)
    await addTrader(db, { id: DEMO_TRADER_SUB, username: 'trader', password: 'trader123', name: '演示贸易商' });
  if (await seedDemo(db, (symbol) => market.getQuote(symbol)?.last_price)) {
    log.info('demo data seeded: trader / trader123 at /trader, pricer1 / pricer123 at /pricer/1');
  }
}
if (identity) await hintFirstTrader(db, log);

// First the jobs' first runs (the deadlines: an order of an expired contract is cancelled, never sent), then trading.
await capabilities.start();
await trading.start();
await app.listen({ host: config.host, port: config.port });
log.info(`快期点价宝 on ${config.publicUrl} (trader sign-in: ${issuer})`);
logAppsSetting(log, config.appsDir);
