import { NotFoundPage } from '@pfp/ui';
import { Route, Routes } from 'react-router';
import { VolatilityPage } from './VolatilityPage';

/** The volatility app's route tree, mounted by the host at /volatility-surface/*: only the root. */
export default function VolatilityApp() {
  return (
    <Routes>
      <Route index element={<VolatilityPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
