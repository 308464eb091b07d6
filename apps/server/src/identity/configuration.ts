import type { JWK } from 'jose';
import { errors, type Configuration, type UnknownObject } from 'oidc-provider';
import type { Database } from '../platform/db/database';
import { KyselyAdapter } from './adapter';
import { PROTOCOL, profileClaims, type IdentitySettings } from './settings';
import { findTraderById } from './traders';
import { autoSubmitPage, messagePage, pageCsp } from './pages';

/**
 * oidc-provider's configuration of the Keycloak look-alike: one public PKCE client, Keycloak's
 * URL layout and token shape, JWT access tokens for the API's audience, our own pages.
 */
export function providerConfiguration(s: IdentitySettings, db: Database, privateJwks: JWK[]): Configuration {
  return {
    adapter: KyselyAdapter.factory(db),
    jwks: { keys: privateJwks },
    clients: [
      {
        client_id: s.clientId,
        client_name: s.productName,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: s.redirectRules.registered(),
        post_logout_redirect_uris: s.postLogoutRules.registered(),
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
      const trader = await findTraderById(db, sub);
      if (!trader) return undefined;
      return { accountId: trader.id, claims: () => profileClaims(trader) };
    },
    // Keycloak-shaped access tokens: the profile, azp and (empty) roles.
    extraTokenClaims: async (_ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const trader = accountId ? await findTraderById(db, accountId) : undefined;
      const { sub: _, ...claims } = trader ? profileClaims(trader) : { sub: undefined };
      const sid = 'sid' in token && typeof token.sid === 'string' ? token.sid : undefined;
      return {
        ...claims,
        azp: s.clientId,
        ...(sid ? { sid } : {}),
        realm_access: { roles: [] },
        resource_access: { [s.clientId]: { roles: [] } },
      } as UnknownObject;
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) =>
      client.clientId === s.clientId && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: s.accessTokenTtl,
      IdToken: s.accessTokenTtl,
      AuthorizationCode: 60,
      Interaction: s.interactionTtl,
      Session: s.refreshTokenTtl,
      Grant: s.refreshTokenTtl,
      // A rotated token keeps what its predecessor had left: a sign-in lasts refreshTokenTtl at most.
      RefreshToken: (ctx) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? s.refreshTokenTtl,
    },
    cookies: {
      keys: s.cookieKeys,
      long: s.longCookie,
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
      url: (_ctx, interaction) => `${s.issuerPath}/login-actions/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx, requestOrigin) => s.formActions.includes(requestOrigin),
    // userinfo is served by userinfo.ts (oidc-provider's refuses audience-restricted JWT access tokens).
    discovery: {
      userinfo_endpoint: `${s.issuer}${PROTOCOL}/userinfo`,
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
        defaultResource: async () => s.resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator, client) => {
          if (indicator !== s.resource || client.clientId !== s.clientId) throw new errors.InvalidTarget();
          return {
            scope: 'openid profile email',
            audience: s.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: s.accessTokenTtl,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        // Normally never shown: logout.ts turns the request into a redirect.
        logoutSource: async (ctx, form) => {
          ctx.set('Content-Security-Policy', pageCsp([s.origin], true));
          ctx.body = autoSubmitPage({
            title: '正在退出登录',
            productName: s.productName,
            form: form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>'),
            button: '退出登录',
          });
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.set('Content-Security-Policy', pageCsp());
          ctx.body = messagePage({
            title: '已退出登录',
            message: '您已安全退出。',
            productName: s.productName,
            link: { href: s.homeUrl, text: '重新登录' },
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
        productName: s.productName,
        link: { href: s.homeUrl, text: '返回应用' },
      });
    },
  };
}
