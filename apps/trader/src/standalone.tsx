import '@mantine/core/styles.css';
import '@pfp/mantine/dates.css';
import { StandaloneProviders } from '@pfp/ui';
import { createRoot } from 'react-dom/client';
import { Navigate, Route, Routes } from '@pfp/router';
import App from './App';

// Development only: the trader remote on its own, mounted at /trader like in the host.
createRoot(document.getElementById('root')!).render(
  <StandaloneProviders>
    <Routes>
      <Route path="/trader/*" element={<App />} />
      <Route path="*" element={<Navigate to="/trader" replace />} />
    </Routes>
  </StandaloneProviders>,
);
