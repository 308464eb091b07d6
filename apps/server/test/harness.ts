import { sql } from 'kysely';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app';
import { PricerTokens } from '../src/platform/auth/pricerTokens';
import { SecretBox } from '../src/platform/auth/secrets';
import { TraderVerifier } from '../src/platform/auth/traderTokens';
import { loadConfig } from '../src/platform/config';
import type { AppContext } from '../src/modules/context';
import { seedCatalogue } from '../src/seed/catalogue';
import { openMigratedDatabase } from './db';
import { ensureAgreement } from '../src/modules/agreement/agreement';
import type { Database } from '../src/platform/db/database';

/** The customer has accepted the company's newest 点价协议 (once; the address names the fixture). */
async function acceptedByFixture(db: Database, tenantId: number, pricerId: number) {
  await ensureAgreement(db, tenantId);
  await sql`
    insert into agreement_acceptances (pricer_id, tenant_id, version, ip, user_agent)
    select ${pricerId}, ${tenantId}, max(version), 'test-fixture', 'test-fixture' from agreement_templates
    where tenant_id = ${tenantId}
    on conflict do nothing`.execute(db);
}

export const ISSUER_PATH = '/realms/pfp';
export const AUDIENCE = 'shinny_web';

/**
 * A throwaway identity provider for API tests: an RS256 key whose JWKS is served over real HTTP
 * on loopback, and a signer for trader access tokens.
 */
export async function startTestIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((req, res) => {
    if (req.url === `${ISSUER_PATH}/protocol/openid-connect/certs`) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}${ISSUER_PATH}`;
  const sign = (
    claims: Record<string, unknown>,
    opts: {
      sub?: string;
      aud?: string;
      iss?: string;
      exp?: string | number;
      key?: Parameters<SignJWT['sign']>[0];
      /** The header's typ: an access token's `at+jwt` (RFC 9068) by default. */
      typ?: string;
    } = {},
  ) =>
    new SignJWT({ preferred_username: opts.sub ?? 'trader', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: opts.typ ?? 'at+jwt' })
      .setSubject(opts.sub ?? 'trader-sub')
      .setIssuer(opts.iss ?? issuer)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '5m')
      .sign(opts.key ?? privateKey);
  return { issuer, sign, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/** The real app on the test database (PGlite in memory, or the PostgreSQL of the run). */
export async function startHarness(
  overrides: Partial<AppContext> = {},
  /**
   * 'fixture' (default): a customer's first sign-in through `call` finds the 点价协议 accepted, as the
   * demo's customers have (docs/agreement.md), so suites about other things fix at once; 'manual': the
   * desk's gate as a new customer meets it (the agreement's own tests).
   */
  opts: { agreement?: 'fixture' | 'manual' } = {},
) {
  // The event-loop guard off: two test files at a time on a loaded 2-core machine slow the loop past its 1 s, and
  // its 503s would fail tests that are not about it (platform/http/overload.api.test.ts tests it on a config of its own).
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000', OVERLOAD_MAX_LOOP_DELAY_MS: '0' }),
    appsDir: null,
  };
  const db = await openMigratedDatabase();
  await seedCatalogue(db);
  const idp = await startTestIssuer();
  const ctx: AppContext = {
    config,
    db,
    secrets: new SecretBox('test-secret'),
    pricerTokens: new PricerTokens('test-secret'),
    traderVerifier: new TraderVerifier({
      issuer: idp.issuer,
      audience: AUDIENCE,
      jwks: new URL(`${idp.issuer}/protocol/openid-connect/certs`),
    }),
    oidc: { authority: idp.issuer, clientId: AUDIENCE },
    ...overrides,
  };
  const app = await buildApp(ctx);
  await app.ready();

  async function call(url: string, body?: unknown, token?: string, method: 'POST' | 'GET' = 'POST') {
    const res = await app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(method === 'POST' ? { payload: (body ?? {}) as Record<string, unknown> } : {}),
    });
    const answer = {
      status: res.statusCode,
      body: res.json() as {
        result: string;
        data: any;
        error: { code: string; message: string; field?: string; link?: string };
      },
    };
    if (url === '/api/pricer/rpc/pricer-login' && answer.status === 200 && opts.agreement !== 'manual')
      await acceptedByFixture(db, answer.body.data.tenant_id as number, answer.body.data.user_id as number);
    return answer;
  }

  return {
    app,
    db,
    ctx,
    idp,
    call,
    async close() {
      await app.close();
      await db.destroy();
      await idp.close();
    },
  };
}
