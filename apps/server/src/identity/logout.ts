import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../platform/db/database';
import type { IdentitySettings } from './settings';

/**
 * RP-initiated logout without a confirmation page: once oidc-provider has validated the request
 * (id_token_hint, client_id, post_logout_redirect_uri) and rendered its form, do what submitting
 * that form would do and redirect straight to post_logout_redirect_uri.
 */
export function logoutWithoutConfirmation(provider: Provider, s: IdentitySettings, db: Database) {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (oidc?.route !== 'end_session' || ctx.status !== 200) return;
    const session = oidc.session!;
    const state = (session.state ?? {}) as { postLogoutRedirectUri?: string; state?: string };
    for (const [cid, authorization] of Object.entries(session.authorizations ?? {})) {
      if (authorization.grantId && !session.authorizationFor(cid)?.persistsLogout)
        await revokeGrant(db, authorization.grantId);
    }
    await session.destroy();
    ctx.cookies.set(provider.cookieName('session'), null, { ...s.longCookie, overwrite: true });
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
}

/** Every token of a grant and the grant itself. */
async function revokeGrant(db: Database, grantId: string) {
  await db
    .deleteFrom('oidc_payloads')
    .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('type', '=', 'Grant'), eb('id', '=', grantId)])]))
    .execute();
}
