import '@mantine/core/styles.css';
import { StandaloneProviders } from '@pfp/ui';
import { createRoot } from 'react-dom/client';
import { Navigate, Route, Routes } from '@pfp/router';
import App from './App';

// Development only: the volatility remote on its own, mounted at /volatility-surface like in the host.
createRoot(document.getElementById('root')!).render(
  <StandaloneProviders toaster="rich">
    <Routes>
      <Route path="/volatility-surface/*" element={<App />} />
      <Route path="*" element={<Navigate to="/volatility-surface" replace />} />
    </Routes>
  </StandaloneProviders>,
);
