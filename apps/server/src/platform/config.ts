import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { OverloadConfig } from './http/overload';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Directory holding host/, trader/, pricer/, volatility/ builds; null = serve no apps. */
  appsDir: string | null;
  /** Where the host finds each remote's entry (SPEC: remotes redeploy without the host). */
  remotes: Record<string, string>;
  logLevel: string;
  /** postgres://… switches from embedded PGlite (in dataDir/db) to PostgreSQL. */
  databaseUrl: string | undefined;
  /** Encrypts broker passwords and signs pricer tokens; generated into dataDir when unset. */
  secretKey: string | undefined;
  /** External OpenID provider (a Keycloak realm URL); unset = the embedded provider. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  /** Where the server fetches the issuer's keys, when it reaches the provider by another URL than browsers. */
  oidcJwksUrl: string | undefined;
  /** The audience the API requires in trader access tokens. */
  oidcAudience: string;
  /** The URL browsers use to reach this server; the embedded provider's issuer lives under it. */
  publicUrl: string;
  /** Lifetime of trader access tokens from the embedded provider, seconds. */
  accessTokenTtl: number;
  seedDemo: boolean;
  /** SIM_MARKET_HOOKS=1: POST /api/test/market-shift moves the simulated market (end-to-end suites only). */
  simMarketHooks: boolean;
  marketSource: 'sim' | 'diff';
  /** The DIFF market-data server when MARKET_SOURCE=diff. */
  mdUrl: string | undefined;
  /** The DIFF trade gateway (open-trade-gateway) for real accounts; unset = real accounts report an error. */
  tradeUrl: string | undefined;
  /** The volatility view needs no token (the spec's development mode); VOLATILITY_PUBLIC=0 to require one. */
  volatilityPublic: boolean;
  marketSeed: number;
  /** 'always' (default): the simulated market trades around the clock; 'real': exchange sessions. */
  marketSessions: 'always' | 'real';
  /** Failed logins (customer and trader) allowed per address per minute; successes are not counted. */
  loginRateLimit: number;
  /** Failures of one account before it must wait (30 s, doubling, up to loginLockMinutes). */
  loginMaxFailures: number;
  loginLockMinutes: number;
  /**
   * Proxies whose X-Forwarded-For/-Proto/-Host are believed (addresses, CIDRs or proxy-addr names such as
   * `loopback`); false = none: the socket address is the client's, in rate limits and logs.
   */
  trustProxy: string[] | false;
  /** Every request is answered within this many ms (503 after it). */
  requestDeadlineMs: number;
  /** PostgreSQL: time to get a connection, and the server-side statement_timeout, ms. */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  /** WebSocket limits (docs/security.md). */
  ws: WsLimitsConfig;
  /** Worker threads computing volatility curves; 0 = on the main thread; unset = cores − 1 (1–4). */
  curveWorkers: number | undefined;
  /** Order-router transactions at once over all tenants; unset = 1 on PGlite, 5 on PostgreSQL (docs/performance.md). */
  tradingDbConcurrency: number;
  /** Load shedding: 503 + Retry-After before a request is taken on (http/overload.ts, docs/performance.md). */
  overload: OverloadConfig;
}

export interface WsLimitsConfig {
  /** Views one connection may subscribe. */
  maxViews: number;
  /** Curves one volatility view may ask for. */
  maxCurves: number;
  /** Distinct futures (option chains) over all views of one connection. */
  maxFutures: number;
  /** Open connections per client address, and overall. */
  maxConnectionsPerAddress: number;
  maxConnections: number;
  /**
   * Anonymous (public view) connections of this server together: past half of it, each address holds at
   * most a fair share, budget / (addresses + 1); signed-in desks are not counted against it (issue 30).
   */
  maxAnonymousConnections: number;
  /** Futures whose chains anonymous connections together keep computed (issue 30: the work a flood can cause). */
  maxAnonymousFutures: number;
  /** Volatility views one company's signed-in connections (its traders and customers) hold together (issue 40). */
  maxCompanyViews: number;
  /** Futures whose chains one company's signed-in views keep computed together (issue 40). */
  maxCompanyFutures: number;
  /** Futures whose chains the signed-in views of all companies keep computed together (issue 40). */
  maxSignedInFutures: number;
  /** Largest message a client may send, bytes. */
  maxMessageBytes: number;
  /** Messages per second a client may send (a burst of twice as many is allowed). */
  maxMessagesPerSecond: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** apps/server/dist (the bundle) or apps/server/src/platform (the source) → apps/, the layout of the repo and of the server image. */
function defaultAppsDir(): string | null {
  const serverDir = path.basename(here) === 'dist' ? path.dirname(here) : path.resolve(here, '../..');
  const dir = path.dirname(serverDir);
  return existsSync(path.join(dir, 'host/dist/index.html')) ? dir : null;
}

export const DEFAULT_REMOTES = {
  trader: '/remotes/trader/remoteEntry.js',
  pricer: '/remotes/pricer/remoteEntry.js',
  volatility: '/remotes/volatility/remoteEntry.js',
};

/** REMOTES_MANIFEST: inline JSON or the path of a JSON file, `{"trader": "https://…/remoteEntry.js", …}`. */
const remotesManifest = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value.startsWith('{') ? value : readFileSync(value, 'utf8')) as unknown;
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `is neither JSON nor a readable JSON file (${(e as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(z.string(), z.string({ error: (iss) => `entry of ${String(iss.path?.at(-1))} must be a string` }), {
      error: 'must be a JSON object',
    }),
  )
  .transform((entries) => ({ ...DEFAULT_REMOTES, ...entries }));

const integer = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^-?\d+$/, { error: `must be ${what}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be ${what}` })
        .max(max, { error: `must be ${what}` }),
    );

/** 1/0, true/false (any case). */
const flag = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['1', '0', 'true', 'false'], { error: 'must be 1, 0, true or false' }))
  .transform((v) => v === '1' || v === 'true');

const url = z.url({ error: 'must be a URL' });

/** A decimal 0–1 (a share). */
const fraction = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?)$/, { error: 'must be a decimal from 0 to 1' })
  .transform(Number);

/**
 * The environment the server reads (docs/server.md lists them). Every variable is checked at
 * start-up: a bad value stops the server with a message naming the variable, instead of a NaN or a
 * silent default deep inside.
 */
const envSchema = z
  .object({
    PORT: integer(0, 65535, 'a port number (0–65535)').default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('data'),
    REMOTES_MANIFEST: remotesManifest.optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be fatal, error, warn, info, debug, trace or silent',
      })
      .default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
      .optional(),
    SECRET_KEY: z.string().optional(),
    OIDC_ISSUER: url.optional(),
    OIDC_CLIENT_ID: z.string().default('shinny_web'),
    OIDC_JWKS_URL: url.optional(),
    OIDC_AUDIENCE: z.string().optional(),
    PUBLIC_URL: url.optional(),
    OIDC_ACCESS_TOKEN_TTL: integer(1, 86_400, 'a number of seconds (1–86400)').default(300),
    VOLATILITY_PUBLIC: flag.default(true),
    MARKET_SEED: integer(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer').optional(),
    MARKET_SESSIONS: z.enum(['always', 'real'], { error: 'must be always or real' }).default('always'),
    MARKET_SOURCE: z.enum(['sim', 'diff'], { error: 'must be sim or diff' }).default('sim'),
    MD_URL: url.optional(),
    TRADE_URL: url.optional(),
    // Default: on for the embedded database only; with DATABASE_URL (production) off (issue 30).
    SEED_DEMO: flag.optional(),
    SIM_MARKET_HOOKS: flag.default(false),
    LOGIN_RATE_LIMIT: integer(1, 1_000_000, 'a positive integer').default(30),
    LOGIN_MAX_FAILURES: integer(1, 1_000, 'a positive integer').default(5),
    LOGIN_LOCK_MINUTES: integer(1, 24 * 60, 'a number of minutes (1–1440)').default(15),
    TRUST_PROXY: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .optional(),
    REQUEST_DEADLINE_MS: integer(100, 600_000, 'a number of ms (100–600000)').default(15_000),
    DB_CONNECT_TIMEOUT_MS: integer(100, 600_000, 'a number of ms (100–600000)').default(5_000),
    DB_STATEMENT_TIMEOUT_MS: integer(100, 600_000, 'a number of ms (100–600000)').default(10_000),
    WS_MAX_VIEWS: integer(1, 1_000, 'a positive integer').default(8),
    WS_MAX_CURVES: integer(1, 1_000, 'a positive integer').default(16),
    WS_MAX_FUTURES: integer(1, 1_000, 'a positive integer').default(2),
    WS_MAX_CONNECTIONS_PER_ADDRESS: integer(1, 1_000_000, 'a positive integer').default(20),
    WS_MAX_CONNECTIONS: integer(1, 1_000_000, 'a positive integer').default(5_000),
    WS_MAX_ANONYMOUS_CONNECTIONS: integer(1, 1_000_000, 'a positive integer').default(120),
    WS_MAX_ANONYMOUS_FUTURES: integer(1, 100_000, 'a positive integer').default(16),
    WS_MAX_COMPANY_VIEWS: integer(1, 100_000, 'a positive integer').default(24),
    WS_MAX_COMPANY_FUTURES: integer(1, 100_000, 'a positive integer').default(4),
    WS_MAX_SIGNED_IN_FUTURES: integer(1, 100_000, 'a positive integer').default(16),
    WS_MAX_MESSAGE_BYTES: integer(256, 16 * 1024 * 1024, 'a number of bytes (256–16777216)').default(16 * 1024),
    WS_MAX_MESSAGES_PER_SECOND: integer(1, 10_000, 'a positive integer').default(20),
    CURVE_WORKERS: integer(0, 64, 'an integer 0–64').optional(),
    TRADING_DB_CONCURRENCY: integer(1, 1000, 'an integer 1–1000').optional(),
    OVERLOAD_MAX_IN_FLIGHT: integer(0, 1_000_000, 'a non-negative integer').default(128),
    OVERLOAD_MAX_LOOP_DELAY_MS: integer(0, 60_000, 'a number of ms (0–60000)').default(1000),
    OVERLOAD_MAX_LOOP_UTILISATION: fraction.default(0),
  })
  .refine((env) => env.MARKET_SOURCE !== 'diff' || env.MD_URL, {
    path: ['MARKET_SOURCE'],
    error: 'diff needs MD_URL (the DIFF market-data server)',
  });

/** Unset and blank variables are the same: absent. */
function present(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v.trim() !== '') out[k] = v.trim();
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(present(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '?');
      return `  ${name} ${i.message} (got ${JSON.stringify(env[name] ?? '')})`;
    });
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    // APPS_DIR='' (set but empty) serves no apps.
    appsDir: env.APPS_DIR === '' ? null : env.APPS_DIR ? path.resolve(env.APPS_DIR) : defaultAppsDir(),
    remotes: e.REMOTES_MANIFEST ?? DEFAULT_REMOTES,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    oidcIssuer: e.OIDC_ISSUER?.replace(/\/$/, ''),
    oidcClientId: e.OIDC_CLIENT_ID,
    oidcJwksUrl: e.OIDC_JWKS_URL,
    oidcAudience: e.OIDC_AUDIENCE ?? e.OIDC_CLIENT_ID,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    accessTokenTtl: e.OIDC_ACCESS_TOKEN_TTL,
    volatilityPublic: e.VOLATILITY_PUBLIC,
    marketSeed: e.MARKET_SEED ?? Date.now() % 1_000_000,
    marketSessions: e.MARKET_SESSIONS,
    tradeUrl: e.TRADE_URL,
    marketSource: e.MARKET_SOURCE,
    mdUrl: e.MD_URL,
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    simMarketHooks: e.SIM_MARKET_HOOKS,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginLockMinutes: e.LOGIN_LOCK_MINUTES,
    trustProxy: e.TRUST_PROXY?.length ? e.TRUST_PROXY : false,
    requestDeadlineMs: e.REQUEST_DEADLINE_MS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    ws: {
      maxViews: e.WS_MAX_VIEWS,
      maxCurves: e.WS_MAX_CURVES,
      maxFutures: e.WS_MAX_FUTURES,
      maxConnectionsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS,
      maxConnections: e.WS_MAX_CONNECTIONS,
      maxAnonymousConnections: e.WS_MAX_ANONYMOUS_CONNECTIONS,
      maxAnonymousFutures: e.WS_MAX_ANONYMOUS_FUTURES,
      maxCompanyViews: e.WS_MAX_COMPANY_VIEWS,
      maxCompanyFutures: e.WS_MAX_COMPANY_FUTURES,
      maxSignedInFutures: e.WS_MAX_SIGNED_IN_FUTURES,
      maxMessageBytes: e.WS_MAX_MESSAGE_BYTES,
      maxMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
    },
    curveWorkers: e.CURVE_WORKERS,
    tradingDbConcurrency: e.TRADING_DB_CONCURRENCY ?? (e.DATABASE_URL ? 5 : 1),
    overload: {
      maxInFlight: e.OVERLOAD_MAX_IN_FLIGHT,
      maxEventLoopDelayMs: e.OVERLOAD_MAX_LOOP_DELAY_MS,
      maxEventLoopUtilization: e.OVERLOAD_MAX_LOOP_UTILISATION,
    },
  };
}
