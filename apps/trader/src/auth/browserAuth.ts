import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import { fetchOidcConfig, type OidcConfig } from '../shared/api/config';
import { TraderAuth, type ManagerLike } from './traderAuth';

const FAILURES_KEY = 'pfp.trader.signinFailures';

/**
 * Where the provider sends the browser after logout. The bare origin would land on the product's
 * 404 page (docs/architecture.md: `/` is not an app); /trader is on the provider's post-logout list
 * and goes straight on to the sign-in page.
 */
export const postLogoutRedirectUri = (origin: string) => `${origin}/trader`;

/** SPEC §7 "Identity provider calls" and §9 "Auth". */
export function userManagerSettings(config: OidcConfig, origin: string, storage: Storage): UserManagerSettings {
  return {
    authority: config.authority,
    client_id: config.client_id,
    // The provider allows any path under /trader; the fragment comes back to the console.
    redirect_uri: `${origin}/trader`,
    post_logout_redirect_uri: postLogoutRedirectUri(origin),
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid',
    // We refresh ourselves (30 s minimum validity, before calls and on a timer).
    automaticSilentRenew: false,
    // The hidden-iframe session check exists in the spec but is disabled.
    monitorSession: false,
    loadUserInfo: false,
    // A reload of the tab stays signed in; a new tab signs in on its own.
    userStore: new WebStorageStateStore({ store: storage }),
    // Pending-login data expires after 60 min; provider calls time out after 10 s.
    staleStateAgeInSeconds: 3600,
    silentRequestTimeoutInSeconds: 10,
    requestTimeoutInSeconds: 10,
  };
}

function sessionCounter(key: string) {
  return {
    get: () => Number(sessionStorage.getItem(key) ?? 0) || 0,
    set: (count: number) => {
      if (count > 0) sessionStorage.setItem(key, String(count));
      else sessionStorage.removeItem(key);
    },
  };
}

export function createBrowserAuth(): TraderAuth {
  return new TraderAuth({
    fetchConfig: fetchOidcConfig,
    createManager: (config) =>
      new UserManager(userManagerSettings(config, window.location.origin, window.sessionStorage)) as ManagerLike,
    location: () => window.location,
    failures: sessionCounter(FAILURES_KEY),
  });
}

let instance: TraderAuth | null = null;

/** The page's one trader session. */
export function traderAuth(): TraderAuth {
  instance ??= createBrowserAuth();
  return instance;
}
