import { useSyncExternalStore } from 'react';
import { onSessionChange, readSession, type Session } from './session';

let cached: { key: string; session: Session | null } = { key: '', session: null };

function snapshot(): Session | null {
  const session = readSession();
  const key = session ? `${session.token}|${session.user.user_id}` : '';
  if (key !== cached.key) cached = { key, session };
  return cached.session;
}

/** The stored session, re-read whenever it is saved or cleared. */
export function useSession(): Session | null {
  return useSyncExternalStore((cb) => onSessionChange(cb), snapshot);
}
