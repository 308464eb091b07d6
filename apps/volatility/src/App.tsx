import { createQueryClient } from '@pfp/api-client/query';
import { NotFoundPage } from '@pfp/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Routes } from '@pfp/router';
import { VolatilityPage } from './VolatilityPage';

const queryClient = createQueryClient();

/** The volatility app's route tree, mounted by the host at /volatility-surface/*: only the root. */
export default function VolatilityApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route index element={<VolatilityPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </QueryClientProvider>
  );
}
