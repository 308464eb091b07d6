/** SPEC §3/§9: the token and the user info are kept in local storage under two keys. */
export const TOKEN_KEY = 'pricer_token';
export const USER_KEY = 'pricer_user_info';

export interface PricerUser {
  user_id: number;
  username: string;
  tenant_id: number;
  company_name: string;
}

export interface Session {
  token: string;
  user: PricerUser;
}

/** expired: an auth error; disabled: the trader deactivated the account (停用, issue 30); logout: the customer's. */
export type EndReason = 'expired' | 'disabled' | 'logout';
type Listener = (reason?: EndReason) => void;
const listeners = new Set<Listener>();

/**
 * Set when an auth error ended the session; the login page shows 认证已过期 (or 账户已停用 for a
 * deactivated account) until the next login.
 */
let expired: 'expired' | 'disabled' | false = false;

function isUser(value: unknown): value is PricerUser {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return typeof u.user_id === 'number' && typeof u.username === 'string' && typeof u.tenant_id === 'number';
}

export function readSession(storage: Storage = localStorage): Session | null {
  const token = storage.getItem(TOKEN_KEY);
  const raw = storage.getItem(USER_KEY);
  if (!token || !raw) return null;
  try {
    const user: unknown = JSON.parse(raw);
    return isUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session, storage: Storage = localStorage) {
  storage.setItem(TOKEN_KEY, session.token);
  storage.setItem(USER_KEY, JSON.stringify(session.user));
  expired = false;
  listeners.forEach((l) => l());
}

export function clearSession(reason?: EndReason, storage: Storage = localStorage) {
  // A late 401 from a request started before sign-out must not mark a fresh visitor as "expired".
  const hadSession = storage.getItem(TOKEN_KEY) !== null || storage.getItem(USER_KEY) !== null;
  storage.removeItem(TOKEN_KEY);
  storage.removeItem(USER_KEY);
  if ((reason === 'expired' || reason === 'disabled') && hadSession) expired = reason;
  if (reason === 'logout') expired = false;
  listeners.forEach((l) => l(reason));
}

/** Whether the last session ended with an auth error (SPEC §4 "Customer auth"). */
export function sessionExpired(): boolean {
  return expired !== false;
}

/** How the last session ended, when an auth error ended it: 'disabled' when the account was deactivated. */
export function sessionEnd(): 'expired' | 'disabled' | false {
  return expired;
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
