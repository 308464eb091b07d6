import { describe, expect, it, vi } from 'vitest';
import {
  clearSession,
  onSessionChange,
  readSession,
  saveSession,
  sessionEnd,
  sessionExpired,
  TOKEN_KEY,
  USER_KEY,
} from './session';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

const user = { user_id: 7, username: 'pricer1', tenant_id: 1, company_name: '演示贸易有限公司' };

describe('pricer session', () => {
  it('is authenticated only with both token and user info', () => {
    const s = memoryStorage();
    expect(readSession(s)).toBeNull();
    s.setItem(TOKEN_KEY, 'jwt');
    expect(readSession(s)).toBeNull();
    s.setItem(USER_KEY, JSON.stringify(user));
    expect(readSession(s)).toEqual({ token: 'jwt', user });
  });

  it('saves and clears both keys and tells listeners why', () => {
    const s = memoryStorage();
    const listener = vi.fn();
    const off = onSessionChange(listener);
    saveSession({ token: 'jwt', user }, s);
    expect(s.length).toBe(2);
    clearSession('expired', s);
    expect(s.length).toBe(0);
    expect(listener).toHaveBeenLastCalledWith('expired');
    off();
  });

  it('treats corrupt user info as signed out', () => {
    const s = memoryStorage();
    s.setItem(TOKEN_KEY, 'jwt');
    s.setItem(USER_KEY, '{oops');
    expect(readSession(s)).toBeNull();
  });
});

describe('expired notice', () => {
  const session = { token: 'jwt', user };

  it('is set by an auth error that ends a session and cleared by the next login', () => {
    const s = memoryStorage();
    saveSession(session, s);
    expect(sessionExpired()).toBe(false);
    clearSession('expired', s);
    expect(sessionExpired()).toBe(true);
    saveSession(session, s);
    expect(sessionExpired()).toBe(false);
  });

  it('is not set by a late 401 when nobody was signed in, nor by a logout', () => {
    const s = memoryStorage();
    clearSession('expired', s);
    expect(sessionExpired()).toBe(false);
    saveSession(session, s);
    clearSession('logout', s);
    expect(sessionExpired()).toBe(false);
  });

  it('says 账户已停用 rather than 认证已过期 when the trader deactivated the account (issue 30)', () => {
    const s = memoryStorage();
    saveSession(session, s);
    clearSession('disabled', s);
    expect(sessionExpired()).toBe(true);
    expect(sessionEnd()).toBe('disabled');
    saveSession(session, s);
    expect(sessionEnd()).toBe(false);
    clearSession('expired', s);
    expect(sessionEnd()).toBe('expired');
    saveSession(session, s);
  });
});
