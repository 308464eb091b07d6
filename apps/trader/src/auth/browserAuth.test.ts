import { describe, expect, it } from 'vitest';
import { postLogoutRedirectUri, userManagerSettings } from './browserAuth';

const memory = (): Storage => {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
};

describe('userManagerSettings', () => {
  it('asks for the code flow with PKCE, the fragment response mode and scope openid, at /trader', () => {
    const settings = userManagerSettings(
      { authority: 'https://h.example/realms/pfp', client_id: 'shinny_web' },
      'https://h.example',
      memory(),
    );
    expect(settings).toMatchObject({
      authority: 'https://h.example/realms/pfp',
      client_id: 'shinny_web',
      redirect_uri: 'https://h.example/trader',
      post_logout_redirect_uri: 'https://h.example/trader',
      response_type: 'code',
      response_mode: 'fragment',
      scope: 'openid',
      automaticSilentRenew: false,
      monitorSession: false,
      staleStateAgeInSeconds: 3600,
    });
    // PKCE is oidc-client-ts's default; nothing may switch it off.
    expect(settings.disablePKCE).toBeUndefined();
  });

  it('keeps the signed-in user in the given (session) storage', async () => {
    const storage = memory();
    const settings = userManagerSettings({ authority: 'https://a', client_id: 'c' }, 'https://h', storage);
    await settings.userStore?.set('user', '{"a":1}');
    expect(storage.length).toBe(1);
    expect(storage.getItem(storage.key(0) ?? '')).toBe('{"a":1}');
  });

  it('sends the signed-out trader back through the console to the sign-in page', () => {
    expect(postLogoutRedirectUri('http://127.0.0.1:8091')).toBe('http://127.0.0.1:8091/trader');
  });
});
