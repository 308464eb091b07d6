import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

// Results reach React in the same task as the answer (by default a setTimeout later), so a test
// that settles a request inside act() sees the result when act() returns.
notifyManager.setScheduler(queueMicrotask);

/** One cache per rendered tree; no retries, so a rejected load is an error at once. */
export function QueryWrapper({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
