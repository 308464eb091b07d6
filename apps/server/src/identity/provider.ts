import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, {
  errors,
  type Configuration,
  type Interaction,
  type KoaContextWithOIDC,
  type UnknownObject,
} from 'oidc-provider';
import type { Database } from '../db/database';
import { KyselyAdapter } from './adapter';
import { loadSigningKeys, type KeyBox } from './keys';
import { FailureLimiter } from './rateLimit';
import { UriRules } from './redirectUris';
import { findTraderById, normalizeUsername, verifyTrader, type Trader } from './traders';
import { autoSubmitPage, loginPage, messagePage, pageCsp } from './views';

export interface IdentityProviderOptions {
  db: Database;
  /** The external origin of the server, e.g. `https://pfp.example.com` (no trailing slash). */
  origin: string;
  /** Keycloak realm name: the issuer is `${origin}/realms/${realm}`. */
  realm?: string;
  /** The one (public, PKCE) client: the trader SPA. */
  clientId?: string;
  /** `aud` of the access tokens, i.e. what the API expects (OIDC_AUDIENCE). Defaults to the client id. */
  audience?: string;
  /** The resource indicator (RFC 8707) the access tokens are minted for; `${origin}/api` by default. */
  resource?: string;
  /**
   * Exact URIs and `…/*` prefixes. 'origin-wildcard' (default): `${origin}/trader` and
   * `${origin}/trader/*`.
   */
  redirectUris?: string[] | 'origin-wildcard';
  /** Same syntax; default `${origin}`, `${origin}/`, `${origin}/trader`, `${origin}/trader/*`. */
  postLogoutRedirectUris?: string[];
  /** Seconds; access and ID tokens. Default 300 (Keycloak's default). */
  accessTokenTtl?: number;
  /**
   * Seconds; the longest a sign-in lasts: refresh tokens (rotated, keeping the original expiry),
   * the provider session and the grant. Default 8 h, a trading day.
   */
  refreshTokenTtl?: number;
  /** Seconds a login page stays usable. Default 30 min. */
  interactionTtl?: number;
  /** Keys signing the provider's cookies; newest first (rotate by prepending). */
  cookieKeys: readonly string[];
  /** Seals the private signing key in `oidc_keys`; without it the key is stored as plain JWK. */
  keyBox?: KeyBox;
  /** Honour X-Forwarded-Proto/Host (behind a reverse proxy). Default true. */
  proxy?: boolean;
  /** Failed sign-ins allowed per username and address in the window; default 10 per 5 min. */
  loginRateLimit?: { max: number; windowMs: number };
  productName?: string;
  logger?: FastifyBaseLogger;
}

export interface IdentityProvider {
  issuer: string;
  /** The public signing keys (what `certs` serves); for the API's token verifier. */
  jwks(): JSONWebKeySet;
  /** Mounts the realm under `/realms/${realm}` on the app. */
  register(app: FastifyInstance): Promise<void>;
  provider: Provider;
}

const PROTOCOL = '/protocol/openid-connect';
const RATE_LIMITED = '登录尝试过于频繁，请稍后再试';
const BAD_CREDENTIALS = '用户名或密码错误';

type LoginBody = { username?: unknown; password?: unknown } | undefined;

/**
 * The embedded OpenID Connect provider: a Keycloak look-alike (same URL layout, same token
 * shape) so that pointing OIDC_ISSUER at a real Keycloak realm needs no code change.
 */
export async function createIdentityProvider(opts: IdentityProviderOptions): Promise<IdentityProvider> {
  const origin = opts.origin.replace(/\/+$/, '');
  const realm = opts.realm ?? 'pfp';
  const clientId = opts.clientId ?? 'shinny_web';
  const audience = opts.audience ?? clientId;
  const resource = opts.resource ?? `${origin}/api`;
  const accessTokenTtl = opts.accessTokenTtl ?? 300;
  const refreshTokenTtl = opts.refreshTokenTtl ?? 8 * 3600;
  const interactionTtl = opts.interactionTtl ?? 30 * 60;
  const productName = opts.productName ?? '快期点价宝';
  const rateLimit = opts.loginRateLimit ?? { max: 10, windowMs: 5 * 60_000 };
  if (!opts.cookieKeys.length || opts.cookieKeys.some((k) => !k)) throw new Error('cookieKeys must be non-empty');
  for (const ttl of [accessTokenTtl, refreshTokenTtl, interactionTtl])
    if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new Error('token lifetimes must be positive integers (seconds)');

  const issuerPath = `/realms/${encodeURIComponent(realm)}`;
  const issuer = `${origin}${issuerPath}`;
  const redirectRules = new UriRules(
    opts.redirectUris === undefined || opts.redirectUris === 'origin-wildcard'
      ? [`${origin}/trader`, `${origin}/trader/*`]
      : opts.redirectUris,
  );
  const postLogoutRules = new UriRules(
    opts.postLogoutRedirectUris ?? [origin, `${origin}/`, `${origin}/trader`, `${origin}/trader/*`],
  );
  const formActions = [...new Set([...redirectRules.registered()].map((u) => new URL(u).origin))];
  const homeUrl = redirectRules.registered()[0] ?? origin;

  const idb = opts.db;
  const keys = await loadSigningKeys(idb, opts.keyBox);
  const localJwks = createLocalJWKSet(keys.publicJwks);
  let log: FastifyBaseLogger | undefined = opts.logger;

  const profile = (trader: Trader) => ({
    sub: trader.id,
    preferred_username: trader.username,
    name: trader.name ?? trader.username,
    ...(trader.email ? { email: trader.email } : {}),
  });

  const longCookie = { httpOnly: true, sameSite: 'lax' as const, path: issuerPath };

  const configuration: Configuration = {
    adapter: KyselyAdapter.factory(idb),
    jwks: { keys: keys.privateJwks },
    clients: [
      {
        client_id: clientId,
        client_name: productName,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: redirectRules.registered(),
        post_logout_redirect_uris: postLogoutRules.registered(),
        id_token_signed_response_alg: 'RS256',
      },
    ],
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email'],
      acr: null,
      sid: null,
      auth_time: null,
      iss: null,
    },
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => {
      const trader = await findTraderById(idb, sub);
      if (!trader) return undefined;
      return { accountId: trader.id, claims: () => profile(trader) };
    },
    // Keycloak-shaped access tokens: the profile, azp and (empty) roles.
    extraTokenClaims: async (_ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const trader = accountId ? await findTraderById(idb, accountId) : undefined;
      const { sub: _, ...claims } = trader ? profile(trader) : { sub: undefined };
      const sid = 'sid' in token && typeof token.sid === 'string' ? token.sid : undefined;
      return {
        ...claims,
        azp: clientId,
        ...(sid ? { sid } : {}),
        realm_access: { roles: [] },
        resource_access: { [clientId]: { roles: [] } },
      } as UnknownObject;
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.clientId === clientId && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTtl,
      IdToken: accessTokenTtl,
      AuthorizationCode: 60,
      Interaction: interactionTtl,
      Session: refreshTokenTtl,
      Grant: refreshTokenTtl,
      // A rotated token keeps what its predecessor had left: a sign-in lasts refreshTokenTtl at most.
      RefreshToken: (ctx) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? refreshTokenTtl,
    },
    cookies: {
      keys: [...opts.cookieKeys],
      long: longCookie,
      short: { httpOnly: true, sameSite: 'lax' },
    },
    routes: {
      authorization: `${PROTOCOL}/auth`,
      token: `${PROTOCOL}/token`,
      end_session: `${PROTOCOL}/logout`,
      userinfo: `${PROTOCOL}/userinfo`,
      jwks: `${PROTOCOL}/certs`,
      revocation: `${PROTOCOL}/revoke`,
      introspection: `${PROTOCOL}/token/introspect`,
      pushed_authorization_request: `${PROTOCOL}/ext/par/request`,
    },
    interactions: {
      url: (_ctx, interaction) => `${issuerPath}/login-actions/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx, requestOrigin) => formActions.includes(requestOrigin),
    // userinfo is served below (oidc-provider's refuses audience-restricted JWT access tokens).
    discovery: {
      userinfo_endpoint: `${issuer}${PROTOCOL}/userinfo`,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      dPoP: { enabled: false },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator, client) => {
          if (indicator !== resource || client.clientId !== clientId) throw new errors.InvalidTarget();
          return {
            scope: 'openid profile email',
            audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: accessTokenTtl,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        // Normally never shown: the logout middleware below turns the request into a redirect.
        logoutSource: async (ctx, form) => {
          ctx.set('Content-Security-Policy', pageCsp([origin], true));
          ctx.body = autoSubmitPage({
            title: '正在退出登录',
            productName,
            form: form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>'),
            button: '退出登录',
          });
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.set('Content-Security-Policy', pageCsp());
          ctx.body = messagePage({
            title: '已退出登录',
            message: '您已安全退出。',
            productName,
            link: { href: homeUrl, text: '重新登录' },
          });
        },
      },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', pageCsp());
      ctx.body = messagePage({
        title: '出错了',
        message: out.error_description ? `${out.error}: ${out.error_description}` : String(out.error),
        productName,
        link: { href: homeUrl, text: '返回应用' },
      });
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = opts.proxy ?? true;

  // Any path under the registered prefixes (oidc-provider itself only compares exact strings).
  const client = provider.Client.prototype;
  const exactRedirect = client.redirectUriAllowed;
  const exactPostLogout = client.postLogoutRedirectUriAllowed;
  client.redirectUriAllowed = function (this: typeof client, value: string) {
    return this.clientId === clientId ? redirectRules.allows(value) : exactRedirect.call(this, value);
  };
  client.postLogoutRedirectUriAllowed = function (this: typeof client, value: string) {
    return this.clientId === clientId ? postLogoutRules.allows(value) : exactPostLogout.call(this, value);
  };
  // Keycloak always puts `sid` in ID tokens; oidc-provider only does for back-channel logout clients.
  const includeSid = (client as unknown as { includeSid(): boolean }).includeSid;
  (client as unknown as { includeSid(): boolean }).includeSid = function (this: typeof client) {
    return this.clientId === clientId || includeSid.call(this);
  };

  // RP-initiated logout without a confirmation page: once oidc-provider has validated the request
  // (id_token_hint, client_id, post_logout_redirect_uri) and rendered its form, do what submitting
  // that form would do and redirect straight to post_logout_redirect_uri.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (oidc?.route !== 'end_session' || ctx.status !== 200) return;
    const session = oidc.session!;
    const state = (session.state ?? {}) as { postLogoutRedirectUri?: string; state?: string };
    for (const [cid, authorization] of Object.entries(session.authorizations ?? {})) {
      if (authorization.grantId && !session.authorizationFor(cid)?.persistsLogout)
        await revokeGrant(authorization.grantId);
    }
    await session.destroy();
    ctx.cookies.set(provider.cookieName('session'), null, { ...longCookie, overwrite: true });
    ctx.remove('Content-Security-Policy');
    let target = state.postLogoutRedirectUri ?? oidc.urlFor('end_session_success');
    if (state.postLogoutRedirectUri && state.state != null) {
      const url = new URL(state.postLogoutRedirectUri);
      url.searchParams.set('state', state.state);
      target = url.href;
    }
    provider.emit('end_session.success', ctx);
    ctx.status = 303;
    ctx.redirect(target);
  });

  /** Every token of a grant and the grant itself. */
  async function revokeGrant(grantId: string) {
    await idb
      .deleteFrom('oidc_payloads')
      .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('type', '=', 'Grant'), eb('id', '=', grantId)])]))
      .execute();
  }

  provider.on('server_error', (_ctx, err) => log?.error({ err }, 'oidc provider error'));
  // Koa prints errors to stderr unless someone listens.
  (provider as unknown as NodeJS.EventEmitter).on('error', (err: unknown) =>
    log?.error({ err }, 'oidc provider error'),
  );
  const rejected = (event: string) => (_ctx: unknown, err: Error) =>
    log?.info({ event, error: err.message }, 'oidc request rejected');
  provider.on('authorization.error', rejected('authorization.error'));
  provider.on('grant.error', rejected('grant.error'));
  provider.on('end_session.error', rejected('end_session.error'));
  provider.on('revocation.error', rejected('revocation.error'));

  const userLimiter = new FailureLimiter(rateLimit.max, rateLimit.windowMs);
  const addressLimiter = new FailureLimiter(rateLimit.max * 10, rateLimit.windowMs);

  function sendPage(reply: FastifyReply, status: number, html: string) {
    return reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', pageCsp(formActions))
      .header('X-Frame-Options', 'DENY')
      .send(html);
  }

  const expiredPage = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      messagePage({
        title: '登录已失效',
        message: '登录页面已过期或不存在，请返回应用重新登录。',
        productName,
        link: { href: homeUrl, text: '返回应用' },
      }),
    );

  /** The interaction of this login URL, or undefined when its cookie or record is gone. */
  async function interactionOf(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === request.params.uid ? details : undefined;
    } catch (err) {
      if (err instanceof errors.SessionNotFound) return undefined;
      throw err;
    }
  }

  /** Hands the raw response to oidc-provider to redirect back into the authorization flow. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionFinished']>[2],
  ) {
    reply.hijack();
    try {
      await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: true });
    } catch (err) {
      log?.error({ err }, 'oidc interaction failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      reply.raw.end('internal error');
    }
  }

  /** First-party client: whatever the authorization request asks for is granted without a page. */
  async function autoConsent(request: FastifyRequest, reply: FastifyReply, details: Interaction) {
    const { prompt, params, session } = details;
    if (params.client_id !== clientId || !session?.accountId)
      return finish(request, reply, { error: 'access_denied', error_description: 'consent not possible' });
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId: session.accountId, clientId });
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    return finish(request, reply, { consent: { grantId } });
  }

  const loginAction = (uid: string) => `${issuerPath}/login-actions/${encodeURIComponent(uid)}`;

  async function register(app: FastifyInstance) {
    log ??= app.log;

    // Pages of our own: the login form and userinfo. Only form bodies are parsed here.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );

      scope.get<{ Params: { uid: string } }>(`${issuerPath}/login-actions/:uid`, async (request, reply) => {
        const details = await interactionOf(request, reply);
        if (!details) return expiredPage(reply);
        if (details.prompt.name === 'consent') return autoConsent(request, reply, details);
        if (details.prompt.name !== 'login')
          return finish(request, reply, { error: 'access_denied', error_description: 'unsupported prompt' });
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
        return sendPage(
          reply,
          200,
          loginPage({ action: loginAction(details.uid), productName, ...(hint ? { username: hint } : {}) }),
        );
      });

      scope.post<{ Params: { uid: string }; Body: LoginBody }>(
        `${issuerPath}/login-actions/:uid`,
        async (request, reply) => {
          const details = await interactionOf(request, reply);
          if (!details) return expiredPage(reply);
          if (details.prompt.name === 'consent') return autoConsent(request, reply, details);
          if (details.prompt.name !== 'login') return expiredPage(reply);
          const body = request.body ?? {};
          const username = typeof body.username === 'string' ? body.username.slice(0, 256) : '';
          const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
          const page = (status: number, error: string) =>
            sendPage(reply, status, loginPage({ action: loginAction(details.uid), productName, username, error }));
          if (!username.trim() || !password) return page(200, '请输入用户名和密码');

          const userKey = `${normalizeUsername(username)}\u0000${request.ip}`;
          const addressKey = request.ip;
          if (userLimiter.isLimited(userKey) || addressLimiter.isLimited(addressKey)) {
            log?.warn({ username: normalizeUsername(username), ip: request.ip }, 'trader sign-in rate limited');
            return page(429, RATE_LIMITED);
          }
          const trader = await verifyTrader(idb, username, password);
          if (!trader) {
            userLimiter.fail(userKey);
            addressLimiter.fail(addressKey);
            log?.info({ username: normalizeUsername(username), ip: request.ip }, 'trader sign-in failed');
            return page(200, BAD_CREDENTIALS);
          }
          userLimiter.reset(userKey);
          log?.info({ sub: trader.id, username: trader.username }, 'trader signed in');
          return finish(request, reply, { login: { accountId: trader.id, amr: ['pwd'] } });
        },
      );

      // Keycloak's userinfo: the bearer is one of our JWT access tokens.
      scope.route({
        method: ['GET', 'POST'],
        url: `${issuerPath}${PROTOCOL}/userinfo`,
        handler: async (request, reply) => {
          reply.header('Cache-Control', 'no-store');
          const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(request.headers.authorization ?? '');
          const deny = (error: string, description: string) =>
            reply
              .code(error === 'invalid_request' ? 400 : 401)
              .header(
                'WWW-Authenticate',
                `Bearer realm="${realm}", error="${error}", error_description="${description}"`,
              )
              .send({ error, error_description: description });
          if (!match?.[1]) return deny('invalid_request', 'no access token provided');
          let claims;
          try {
            ({ payload: claims } = await jwtVerify(match[1], localJwks, {
              issuer,
              audience,
              algorithms: ['RS256'],
              requiredClaims: ['sub', 'exp'],
            }));
          } catch {
            return deny('invalid_token', 'invalid access token');
          }
          const trader = await findTraderById(idb, claims.sub!);
          if (!trader) return deny('invalid_token', 'unknown subject');
          const scopes = new Set(typeof claims.scope === 'string' ? claims.scope.split(' ') : []);
          const { sub, name, preferred_username, email } = profile(trader);
          return {
            sub,
            ...(scopes.has('profile') ? { name, preferred_username } : {}),
            ...(scopes.has('email') && email ? { email } : {}),
          };
        },
      });
    });

    // Everything else under the realm is oidc-provider's, which reads the raw request itself.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      const callback = provider.callback();
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const req = request.raw as IncomingMessage & { baseUrl?: string };
        // oidc-provider routes on the path below its mount point and builds URLs from baseUrl.
        req.baseUrl = issuerPath;
        req.url = req.url!.slice(issuerPath.length) || '/';
        return callback(req, reply.raw as ServerResponse);
      };
      scope.all(`${issuerPath}/*`, handler);
    });
  }

  return { issuer, jwks: () => keys.publicJwks, register, provider };
}
