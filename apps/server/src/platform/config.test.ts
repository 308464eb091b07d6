import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      loginRateLimit: 30,
      loginMaxFailures: 5,
      loginLockMinutes: 15,
      trustProxy: false,
      requestDeadlineMs: 15_000,
      dbConnectTimeoutMs: 5_000,
      dbStatementTimeoutMs: 10_000,
      ws: {
        maxViews: 8,
        maxCurves: 16,
        maxFutures: 2,
        maxConnectionsPerAddress: 20,
        maxConnections: 5000,
        maxMessageBytes: 16_384,
        maxMessagesPerSecond: 20,
      },
      accessTokenTtl: 300,
      seedDemo: true,
      volatilityPublic: true,
      marketSource: 'sim',
      marketSessions: 'always',
      oidcClientId: 'shinny_web',
      oidcAudience: 'shinny_web',
      publicUrl: 'http://localhost:8080',
    });
    expect(c.databaseUrl).toBeUndefined();
  });

  it('seeds the demo by default only for the embedded database (issue 30)', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/pfp' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/pfp', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('reads numbers, flags and URLs; blank means unset', () => {
    const c = loadConfig({
      LOGIN_RATE_LIMIT: '25',
      TRUST_PROXY: '10.0.0.1, loopback',
      SEED_DEMO: 'false',
      VOLATILITY_PUBLIC: '0',
      OIDC_ISSUER: 'https://sso.example/realms/pfp/',
      OIDC_CLIENT_ID: 'desk',
      MARKET_SEED: '42',
      DATABASE_URL: '',
      PUBLIC_URL: 'https://pfp.example//',
    });
    expect(c).toMatchObject({
      loginRateLimit: 25,
      trustProxy: ['10.0.0.1', 'loopback'],
      seedDemo: false,
      volatilityPublic: false,
      oidcIssuer: 'https://sso.example/realms/pfp',
      oidcAudience: 'desk',
      marketSeed: 42,
      publicUrl: 'https://pfp.example',
    });
    expect(c.databaseUrl).toBeUndefined();
  });

  it.each([
    ['LOGIN_RATE_LIMIT', 'abc'],
    ['LOGIN_RATE_LIMIT', '0'],
    ['LOGIN_RATE_LIMIT', '1.5'],
    ['PORT', '70000'],
    ['PORT', '80a'],
    ['OIDC_ACCESS_TOKEN_TTL', 'NaN'],
    ['MARKET_SEED', '-1'],
    ['SEED_DEMO', 'no'],
    ['LOG_LEVEL', 'loud'],
    ['MARKET_SESSIONS', 'sometimes'],
    ['MARKET_SOURCE', 'bloomberg'],
    ['OIDC_ISSUER', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['REMOTES_MANIFEST', '{"trader": 1}'],
    ['REMOTES_MANIFEST', '/no/such/file.json'],
  ])('refuses %s=%j at start-up, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration:\\n.*${name} `));
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ LOGIN_RATE_LIMIT: 'abc', PORT: 'x' })).toThrow(/PORT[^]*LOGIN_RATE_LIMIT/);
  });

  it('MARKET_SOURCE=diff needs MD_URL', () => {
    expect(() => loadConfig({ MARKET_SOURCE: 'diff' })).toThrow(/MARKET_SOURCE diff needs MD_URL/);
    expect(loadConfig({ MARKET_SOURCE: 'diff', MD_URL: 'wss://md.example/t/md/front/mobile' }).marketSource).toBe(
      'diff',
    );
  });
});
