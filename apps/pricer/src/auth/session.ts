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

type Listener = (reason?: 'expired') => void;
const listeners = new Set<Listener>();

export function readSession(storage: Storage = localStorage): Session | null {
  const token = storage.getItem(TOKEN_KEY);
  const raw = storage.getItem(USER_KEY);
  if (!token || !raw) return null;
  try {
    return { token, user: JSON.parse(raw) as PricerUser };
  } catch {
    return null;
  }
}

export function saveSession(session: Session, storage: Storage = localStorage) {
  storage.setItem(TOKEN_KEY, session.token);
  storage.setItem(USER_KEY, JSON.stringify(session.user));
  listeners.forEach((l) => l());
}

export function clearSession(reason?: 'expired', storage: Storage = localStorage) {
  storage.removeItem(TOKEN_KEY);
  storage.removeItem(USER_KEY);
  listeners.forEach((l) => l(reason));
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
