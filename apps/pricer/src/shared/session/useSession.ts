import { useSyncExternalStore } from 'react';
import { onSessionChange, readSession, sessionEnd, sessionExpired, type Session } from './session';

/** Saves and clears in this tab, and in other tabs through the storage event. */
function subscribe(cb: () => void): () => void {
  const off = onSessionChange(cb);
  window.addEventListener('storage', cb);
  return () => {
    off();
    window.removeEventListener('storage', cb);
  };
}

let cached: { key: string; session: Session | null } = { key: '', session: null };

function snapshot(): Session | null {
  const session = readSession();
  const key = session ? `${session.token}|${session.user.user_id}` : '';
  if (key !== cached.key) cached = { key, session };
  return cached.session;
}

/** The stored session, re-read whenever it is saved or cleared. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, snapshot);
}

/** True while the login page should say 认证已过期，请重新登录. */
export function useSessionExpired(): boolean {
  return useSyncExternalStore(subscribe, sessionExpired);
}

/** 'disabled' while the login page should say 账户已停用 (the trader deactivated the account), else as useSessionExpired. */
export function useSessionEnd(): 'expired' | 'disabled' | false {
  return useSyncExternalStore(subscribe, sessionEnd);
}
