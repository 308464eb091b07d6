import { createContext, useContext, type ReactNode } from 'react';
import type { TraderApi } from './client';

const ApiContext = createContext<TraderApi | null>(null);

export function ApiProvider({ api, children }: { api: TraderApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

/** The calls, for the hooks of this folder; features use the hooks. */
export function useApi(): TraderApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <ApiProvider>');
  return api;
}
