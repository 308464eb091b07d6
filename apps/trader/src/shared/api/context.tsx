import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { TraderTransport } from './call';

const TransportContext = createContext<TraderTransport | null>(null);

export function ApiProvider({ transport, children }: { transport: TraderTransport; children: ReactNode }) {
  return <TransportContext.Provider value={transport}>{children}</TransportContext.Provider>;
}

/**
 * A capability's calls over the app's transport, for the hooks of this folder (features use the hooks). Made once
 * per component, so the functions keep their identity across renders.
 */
export function useCalls<A>(calls: (transport: TraderTransport) => A): A {
  const transport = useContext(TransportContext);
  if (!transport) throw new Error('useCalls must be used inside <ApiProvider>');
  return useMemo(() => calls(transport), [calls, transport]);
}
