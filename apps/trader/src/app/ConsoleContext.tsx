import { createContext, useContext } from 'react';
import type { TraderProfile } from '@pfp/contract';

export interface ConsoleContextValue {
  profile: TraderProfile | null;
  profileLoading: boolean;
  profileError: Error | null;
  openSettings: () => void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

/** The company profile and the settings dialog, for the pages inside the layout shell. */
export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole must be used inside <LayoutShell>');
  return value;
}
