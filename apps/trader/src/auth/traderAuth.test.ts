import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwt } from '../../test/jwt';
import {
  DEFAULT_RETURN_TO,
  isSigninResponse,
  MAX_SIGNIN_FAILURES,
  MIN_VALIDITY_SECONDS,
  REFRESH_CHECK_MS,
  REFRESH_FAILED,
  safeReturnTo,
  TraderAuth,
  type AuthUser,
  type ManagerLike,
} from './traderAuth';

const TOKEN = jwt({ sub: 'sub-1', name: '演示贸易商', preferred_username: 'trader' });

function user(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    access_token: TOKEN,
    id_token: jwt({ sub: 'sub-1' }),
    refresh_token: 'refresh-1',
    expires_in: 300,
    profile: { sub: 'sub-1' },
    ...overrides,
  };
}

/** oidc-client-ts's UserManager as far as TraderAuth uses it, recording the calls. */
class FakeManager implements ManagerLike {
  stored: AuthUser | null = null;
  callbackResult: AuthUser | Error = user();
  silentResults: (AuthUser | Error)[] = [];
  calls: string[] = [];
  redirects: { state: { returnTo: string }; nonce: string }[] = [];
  signouts: { id_token_hint?: string | undefined }[] = [];

  async getUser() {
    this.calls.push('getUser');
    return this.stored;
  }
  async signinCallback(url: string) {
    this.calls.push(`signinCallback ${url}`);
    if (this.callbackResult instanceof Error) throw this.callbackResult;
    this.stored = this.callbackResult;
    return this.callbackResult;
  }
  async signinRedirect(args: { state: { returnTo: string }; nonce: string }) {
    this.calls.push('signinRedirect');
    this.redirects.push(args);
  }
  async signinSilent() {
    this.calls.push('signinSilent');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = this.silentResults.shift() ?? new Error('no refresh configured');
    if (next instanceof Error) throw next;
    this.stored = next;
    return next;
  }
  async signoutRedirect(args: { id_token_hint?: string | undefined }) {
    this.calls.push('signoutRedirect');
    this.signouts.push(args);
  }
  async removeUser() {
    this.calls.push('removeUser');
    this.stored = null;
  }
  async clearStaleState() {
    this.calls.push('clearStaleState');
  }
}

function setup(href = 'http://app.test/trader/contracts?x=1') {
  const manager = new FakeManager();
  let failures = 0;
  const url = new URL(href);
  const deps = {
    fetchConfig: vi.fn(async () => ({ authority: 'http://app.test/realms/pfp', client_id: 'shinny_web' })),
    createManager: vi.fn(() => manager),
    location: () => ({ href: url.href, pathname: url.pathname, search: url.search, hash: url.hash }),
    failures: { get: () => failures, set: (n: number) => void (failures = n) },
    log: () => {},
  };
  const auth = new TraderAuth(deps);
  return { auth, manager, deps, failures: () => failures, setFailures: (n: number) => void (failures = n) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('init', () => {
  it('runs once: concurrent and later calls share one run and one UserManager', async () => {
    const { auth, manager, deps } = setup();
    manager.stored = user();
    const a = auth.init();
    const b = auth.init();
    expect(a).toBe(b);
    await a;
    await auth.init();
    expect(deps.fetchConfig).toHaveBeenCalledTimes(1);
    expect(deps.createManager).toHaveBeenCalledTimes(1);
    expect(manager.calls.filter((c) => c === 'getUser')).toHaveLength(1);
    auth.dispose();
  });

  it('starts in loading, then is authenticated with the stored session and the trader from its claims', async () => {
    const { auth, manager } = setup();
    manager.stored = user();
    expect(auth.getSnapshot().status).toBe('loading');
    await auth.init();
    expect(auth.getSnapshot()).toEqual({
      status: 'authenticated',
      error: null,
      trader: { sub: 'sub-1', name: '演示贸易商', preferred_username: 'trader', email: '', avatarUrl: '' },
    });
    expect(manager.redirects).toHaveLength(0);
    auth.dispose();
  });

  it('without a session goes to the provider, remembering the page and sending a nonce', async () => {
    const { auth, manager } = setup('http://app.test/trader/contracts?x=1');
    const seen: string[] = [];
    auth.subscribe(() => seen.push(auth.getSnapshot().status));
    await auth.init();
    expect(auth.getSnapshot().status).toBe('unauthenticated');
    expect(seen).toEqual(['loading', 'unauthenticated']);
    expect(manager.redirects).toHaveLength(1);
    expect(manager.redirects[0]?.state).toEqual({ returnTo: '/trader/contracts?x=1' });
    expect(manager.redirects[0]?.nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('refreshes a stored session with less than 30 s left before using it', async () => {
    const { auth, manager } = setup();
    manager.stored = user({ expires_in: 10 });
    manager.silentResults = [user({ expires_in: 300, refresh_token: 'refresh-2' })];
    await auth.init();
    expect(auth.getSnapshot().status).toBe('authenticated');
    expect(manager.calls).toEqual(['getUser', 'signinSilent']);
    auth.dispose();
  });

  it('throws away a stored session with a malformed token and logs in again', async () => {
    const { auth, manager } = setup();
    manager.stored = user({ access_token: 'garbage' });
    await auth.init();
    expect(manager.calls).toEqual(['getUser', 'removeUser', 'signinRedirect']);
    expect(auth.getSnapshot().status).toBe('unauthenticated');
  });

  it('shows the failure (not a blank page) when the configuration cannot be loaded', async () => {
    const { auth, deps } = setup();
    deps.fetchConfig.mockRejectedValueOnce(new Error('HTTP error! status: 502, body: '));
    await auth.init();
    expect(auth.getSnapshot()).toMatchObject({ status: 'failed', error: 'HTTP error! status: 502, body: ' });
    // The instance was reset: a retry starts over.
    await auth.retry();
    expect(deps.fetchConfig).toHaveBeenCalledTimes(2);
    expect(auth.getSnapshot().status).toBe('unauthenticated');
  });
});

describe('the sign-in response', () => {
  const CALLBACK = 'http://app.test/trader#state=s1&session_state=x&code=c1';

  it('is processed, and the page the trader was on is returned once', async () => {
    const { auth, manager, setFailures, failures } = setup(CALLBACK);
    setFailures(1);
    manager.callbackResult = user({ state: { returnTo: '/trader/pricers' } });
    await expect(auth.init()).resolves.toEqual({ completedSignin: true });
    expect(manager.calls[0]).toBe(`signinCallback ${CALLBACK}`);
    expect(auth.getSnapshot().status).toBe('authenticated');
    expect(auth.takeReturnTo()).toBe('/trader/pricers');
    expect(auth.takeReturnTo()).toBeNull();
    expect(failures()).toBe(0);
    auth.dispose();
  });

  it('with a state or nonce mismatch is refused and a fresh login starts', async () => {
    const { auth, manager, failures } = setup(CALLBACK);
    manager.callbackResult = new Error('No matching state found in storage');
    await auth.init();
    expect(manager.calls).toEqual([`signinCallback ${CALLBACK}`, 'removeUser', 'clearStaleState', 'signinRedirect']);
    expect(manager.redirects[0]?.state.returnTo).toBe(DEFAULT_RETURN_TO);
    expect(auth.getSnapshot().status).toBe('unauthenticated');
    expect(auth.takeReturnTo()).toBeNull();
    expect(failures()).toBe(1);
  });

  it('with a malformed token is refused too', async () => {
    const { auth, manager } = setup(CALLBACK);
    manager.callbackResult = user({ id_token: 'a.b' });
    await auth.init();
    expect(manager.calls.slice(1)).toEqual(['removeUser', 'clearStaleState', 'signinRedirect']);
  });

  it('stops redirecting after repeated failures and offers a retry', async () => {
    const { auth, manager, setFailures, failures } = setup(CALLBACK);
    setFailures(MAX_SIGNIN_FAILURES - 1);
    manager.callbackResult = new Error('nonce in id_token does not match nonce in client storage');
    await auth.init();
    expect(auth.getSnapshot()).toMatchObject({
      status: 'failed',
      error: 'nonce in id_token does not match nonce in client storage',
    });
    expect(manager.redirects).toHaveLength(0);
    await auth.retry();
    expect(failures()).toBe(0);
  });
});

describe('tokens for API calls', () => {
  it('are returned as they are with 30 s or more left', async () => {
    const { auth, manager } = setup();
    manager.stored = user({ expires_in: MIN_VALIDITY_SECONDS + 5 });
    await expect(auth.getAccessToken()).resolves.toBe(TOKEN);
    expect(manager.calls).not.toContain('signinSilent');
    auth.dispose();
  });

  it('are refreshed first below 30 s, once for concurrent calls (refresh tokens rotate)', async () => {
    const { auth, manager } = setup();
    manager.stored = user({ expires_in: 200 });
    await auth.init();
    // The session ages.
    manager.stored.expires_in = 12;
    const fresh = jwt({ sub: 'sub-1', name: '演示贸易商', n: 2 });
    manager.silentResults = [user({ access_token: fresh, expires_in: 45 })];
    const tokens = await Promise.all([auth.getAccessToken(), auth.getAccessToken(), auth.getAccessToken()]);
    expect(tokens).toEqual([fresh, fresh, fresh]);
    expect(manager.calls.filter((c) => c === 'signinSilent')).toHaveLength(1);
    auth.dispose();
  });

  it('a failed refresh signs out and logs in again', async () => {
    const { auth, manager } = setup('http://app.test/trader/pricers');
    manager.stored = user({ expires_in: 200 });
    await auth.init();
    manager.stored.expires_in = 5;
    manager.silentResults = [new Error('invalid_grant')];
    await expect(auth.getAccessToken()).rejects.toThrow(REFRESH_FAILED);
    await vi.waitFor(() => expect(manager.redirects).toHaveLength(1));
    expect(manager.calls.slice(-3)).toEqual(['signinSilent', 'removeUser', 'signinRedirect']);
    expect(manager.redirects[0]?.state.returnTo).toBe('/trader/pricers');
    expect(auth.getSnapshot().status).toBe('unauthenticated');
  });

  it('are refreshed by the timer too', async () => {
    vi.useFakeTimers();
    const { auth, manager } = setup();
    manager.stored = user({ expires_in: 200 });
    await auth.init();
    manager.stored.expires_in = 20;
    manager.silentResults = [user({ expires_in: 45 })];
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_MS + 10);
    expect(manager.calls.filter((c) => c === 'signinSilent')).toHaveLength(1);
    auth.dispose();
  });
});

describe('the auth-error handler', () => {
  it('does nothing while the session is still authenticated (a business error)', async () => {
    const { auth, manager, deps } = setup();
    manager.stored = user();
    await auth.init();
    auth.handleAuthError();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(auth.getSnapshot().status).toBe('authenticated');
    expect(deps.createManager).toHaveBeenCalledTimes(1);
    auth.dispose();
  });

  it('otherwise resets the instance and logs in again', async () => {
    const { auth, manager, deps } = setup();
    manager.stored = user();
    await auth.init();
    manager.stored.expires_in = -1;
    auth.handleAuthError();
    await vi.waitFor(() => expect(manager.redirects).toHaveLength(1));
    expect(deps.createManager).toHaveBeenCalledTimes(2);
    expect(manager.calls).toContain('removeUser');
    expect(auth.getSnapshot().status).toBe('unauthenticated');
  });
});

describe('sign-out', () => {
  it('clears the local session, then calls the provider logout with the id token', async () => {
    const { auth, manager } = setup();
    const idToken = jwt({ sub: 'sub-1', sid: 'x' });
    manager.stored = user({ id_token: idToken });
    await auth.init();
    await auth.signOut();
    expect(manager.calls.slice(-2)).toEqual(['removeUser', 'signoutRedirect']);
    expect(manager.signouts).toEqual([{ id_token_hint: idToken }]);
    expect(auth.getSnapshot()).toMatchObject({ status: 'unauthenticated', trader: null });
    // A late 401 of a call still in flight must not start a login during the logout.
    auth.handleAuthError();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(manager.redirects).toHaveLength(0);
  });
});

describe('helpers', () => {
  it.each([
    ['#state=a&code=b', true],
    ['#code=b&state=a&session_state=c', true],
    ['#error=login_required&state=a', true],
    ['#state=a', false],
    ['#code=b', false],
    ['', false],
  ])('isSigninResponse(%s) = %s', (hash, expected) => {
    expect(isSigninResponse(hash)).toBe(expected);
  });

  it.each([
    [{ returnTo: '/trader/contracts?x=1' }, '/trader/contracts?x=1'],
    [{ returnTo: '/trader' }, DEFAULT_RETURN_TO],
    [{ returnTo: '/trader/' }, DEFAULT_RETURN_TO],
    [{ returnTo: '/trader?theme=dark' }, '/trader/dashboard?theme=dark'],
    [{ returnTo: '/trader/?theme=dark#x' }, '/trader/dashboard?theme=dark'],
    [{ returnTo: '/trader/pricers?theme=dark' }, '/trader/pricers?theme=dark'],
    [{ returnTo: '/pricer/1' }, DEFAULT_RETURN_TO],
    [{ returnTo: 'https://evil.example/trader' }, DEFAULT_RETURN_TO],
    [{ returnTo: '/traderx' }, DEFAULT_RETURN_TO],
    [{ returnTo: 42 }, DEFAULT_RETURN_TO],
    [undefined, DEFAULT_RETURN_TO],
  ])('safeReturnTo(%j) = %s', (state, expected) => {
    expect(safeReturnTo(state)).toBe(expected);
  });
});
