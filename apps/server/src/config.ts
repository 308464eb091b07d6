import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  /** pricer-login attempts per minute per address and account. */
  loginRateLimit: number;
  /** Worker threads computing volatility curves; 0 = on the main thread; unset = cores − 1 (1–4). */
  curveWorkers: number | undefined;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** apps/server/dist → apps/, the layout of the repo and of the server image. */
function defaultAppsDir(): string | null {
  const dir = path.resolve(here, '../..');
  return existsSync(path.join(dir, 'host/dist/index.html')) ? dir : null;
}

export const DEFAULT_REMOTES = {
  trader: '/remotes/trader/remoteEntry.js',
  pricer: '/remotes/pricer/remoteEntry.js',
  volatility: '/remotes/volatility/remoteEntry.js',
};

/** REMOTES_MANIFEST is inline JSON or the path of a JSON file: {"trader": "https://…/remoteEntry.js", …}. */
function loadRemotes(value: string | undefined): Record<string, string> {
  if (!value) return DEFAULT_REMOTES;
  const text = value.trim().startsWith('{') ? value : readFileSync(value, 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('REMOTES_MANIFEST must be a JSON object');
  for (const [name, entry] of Object.entries(parsed)) {
    if (typeof entry !== 'string') throw new Error(`REMOTES_MANIFEST: entry of ${name} must be a string`);
  }
  return { ...DEFAULT_REMOTES, ...(parsed as Record<string, string>) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    appsDir: env.APPS_DIR === '' ? null : env.APPS_DIR ? path.resolve(env.APPS_DIR) : defaultAppsDir(),
    remotes: loadRemotes(env.REMOTES_MANIFEST),
    logLevel: env.LOG_LEVEL ?? 'info',
    databaseUrl: env.DATABASE_URL || undefined,
    secretKey: env.SECRET_KEY || undefined,
    oidcIssuer: env.OIDC_ISSUER?.replace(/\/$/, '') || undefined,
    oidcClientId: env.OIDC_CLIENT_ID ?? 'shinny_web',
    oidcJwksUrl: env.OIDC_JWKS_URL || undefined,
    oidcAudience: env.OIDC_AUDIENCE ?? env.OIDC_CLIENT_ID ?? 'shinny_web',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    accessTokenTtl: Number(env.OIDC_ACCESS_TOKEN_TTL ?? 300),
    volatilityPublic: env.VOLATILITY_PUBLIC !== '0' && env.VOLATILITY_PUBLIC !== 'false',
    marketSeed: Number(env.MARKET_SEED ?? Date.now() % 1_000_000),
    marketSessions: env.MARKET_SESSIONS === 'real' ? 'real' : 'always',
    tradeUrl: env.TRADE_URL || undefined,
    marketSource: marketSource(env.MARKET_SOURCE, env.MD_URL),
    mdUrl: env.MD_URL || undefined,
    seedDemo: env.SEED_DEMO !== '0' && env.SEED_DEMO !== 'false',
    loginRateLimit: Number(env.LOGIN_RATE_LIMIT ?? 10),
    curveWorkers: curveWorkers(env.CURVE_WORKERS),
  };
}

function curveWorkers(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`CURVE_WORKERS must be an integer 0–64, got ${value}`);
  return n;
}

function marketSource(value: string | undefined, mdUrl: string | undefined): 'sim' | 'diff' {
  if (!value || value === 'sim') return 'sim';
  if (value !== 'diff') throw new Error(`MARKET_SOURCE must be sim or diff, got ${value}`);
  if (!mdUrl) throw new Error('MARKET_SOURCE=diff needs MD_URL (the DIFF market-data server)');
  return 'diff';
}
