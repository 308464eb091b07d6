import { typedNameTag } from '../platform/auth/typedName';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors, type Interaction } from 'oidc-provider';
import type { Database } from '../platform/db/database';
import { LOGIN_MESSAGES, LoginGuard } from '../platform/auth/loginGuard';
import type { Logger } from '../platform/logger';
import type { IdentitySettings } from './settings';
import { normalizeUsername, verifyTrader } from './traders';
import { loginPage, messagePage, pageCsp } from './pages';

const BAD_CREDENTIALS = '用户名或密码错误';

type LoginBody = { username?: unknown; password?: unknown } | undefined;
type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

/**
 * The login pages (`/login-actions/:uid`): the sign-in form and its check (the customer login's
 * protection: per account whatever the address, failures per address — auth/loginGuard.ts), and the consent step, granted at once for our first-party client.
 */
export function interactionRoutes(
  scope: FastifyInstance,
  provider: Provider,
  s: IdentitySettings,
  db: Database,
  log: () => Logger | undefined,
) {
  const guard = new LoginGuard(db, s.loginGuard);
  const loginAction = (uid: string) => `${s.issuerPath}/login-actions/${encodeURIComponent(uid)}`;

  function sendPage(reply: FastifyReply, status: number, html: string) {
    return reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', pageCsp(s.formActions))
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
        productName: s.productName,
        link: { href: s.homeUrl, text: '返回应用' },
      }),
    );

  /** The interaction of this login URL, or undefined when its cookie or record is gone. */
  async function interactionOf(request: UidRequest, reply: FastifyReply) {
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
      log()?.error({ err }, 'oidc interaction failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      reply.raw.end('internal error');
    }
  }

  /** First-party client: whatever the authorization request asks for is granted without a page. */
  async function autoConsent(request: FastifyRequest, reply: FastifyReply, details: Interaction) {
    const { prompt, params, session } = details;
    if (params.client_id !== s.clientId || !session?.accountId)
      return finish(request, reply, { error: 'access_denied', error_description: 'consent not possible' });
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId: session.accountId, clientId: s.clientId });
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

  scope.get<{ Params: { uid: string } }>(`${s.issuerPath}/login-actions/:uid`, async (request, reply) => {
    const details = await interactionOf(request, reply);
    if (!details) return expiredPage(reply);
    if (details.prompt.name === 'consent') return autoConsent(request, reply, details);
    if (details.prompt.name !== 'login')
      return finish(request, reply, { error: 'access_denied', error_description: 'unsupported prompt' });
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    return sendPage(
      reply,
      200,
      loginPage({ action: loginAction(details.uid), productName: s.productName, ...(hint ? { username: hint } : {}) }),
    );
  });

  scope.post<{ Params: { uid: string }; Body: LoginBody }>(
    `${s.issuerPath}/login-actions/:uid`,
    async (request, reply) => {
      const details = await interactionOf(request, reply);
      if (!details) return expiredPage(reply);
      if (details.prompt.name === 'consent') return autoConsent(request, reply, details);
      if (details.prompt.name !== 'login') return expiredPage(reply);
      const body = request.body ?? {};
      const username = typeof body.username === 'string' ? body.username.slice(0, 256) : '';
      const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
      const page = (status: number, error: string) =>
        sendPage(
          reply,
          status,
          loginPage({ action: loginAction(details.uid), productName: s.productName, username, error }),
        );
      if (!username.trim() || !password) return page(200, '请输入用户名和密码');

      const account = `trader:${normalizeUsername(username)}`;
      const verdict = await guard.check(account, request.ip);
      if (verdict !== 'ok') {
        // The typed name is not logged in clear (issue 30): a tag of it.
        log()?.warn({ username_tag: typedNameTag(username), ip: request.ip, verdict }, 'trader sign-in refused');
        return page(429, verdict === 'account-locked' ? LOGIN_MESSAGES.accountLocked : LOGIN_MESSAGES.addressLimited);
      }
      const trader = await verifyTrader(db, username, password);
      if (!trader) {
        await guard.failed(account, request.ip);
        log()?.info({ username_tag: typedNameTag(username), ip: request.ip }, 'trader sign-in failed');
        return page(200, BAD_CREDENTIALS);
      }
      await guard.succeeded(account, request.ip);
      log()?.info({ sub: trader.id, username: trader.username }, 'trader signed in');
      return finish(request, reply, { login: { accountId: trader.id, amr: ['pwd'] } });
    },
  );
}
