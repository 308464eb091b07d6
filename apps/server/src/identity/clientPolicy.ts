import type Provider from 'oidc-provider';
import type { IdentitySettings } from './settings';

/**
 * Where oidc-provider's client checks differ from Keycloak's, for our client: redirect and
 * post-logout URIs may be any path under a registered `…/*` prefix (oidc-provider compares exact
 * strings), and ID tokens always carry `sid` (oidc-provider only adds it for back-channel logout).
 */
export function applyClientPolicy(provider: Provider, s: IdentitySettings) {
  const client = provider.Client.prototype;
  const exactRedirect = client.redirectUriAllowed;
  const exactPostLogout = client.postLogoutRedirectUriAllowed;
  const includeSid = client.includeSid;
  client.redirectUriAllowed = function (this: typeof client, value: string) {
    return this.clientId === s.clientId ? s.redirectRules.allows(value) : exactRedirect.call(this, value);
  };
  client.postLogoutRedirectUriAllowed = function (this: typeof client, value: string) {
    return this.clientId === s.clientId ? s.postLogoutRules.allows(value) : exactPostLogout.call(this, value);
  };
  client.includeSid = function (this: typeof client) {
    return this.clientId === s.clientId || includeSid.call(this);
  };
}
