import { describe, expect, it, vi } from 'vitest';
import { clearSession, onSessionChange, readSession, saveSession, TOKEN_KEY, USER_KEY } from './session';

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
