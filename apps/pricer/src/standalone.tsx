import '@mantine/core/styles.css';
import '@pfp/mantine/dates.css';
import { StandaloneProviders } from '@pfp/ui';
import { createRoot } from 'react-dom/client';
import { Navigate, Route, Routes } from '@pfp/router';
import App from './App';

// Development only: the pricer remote on its own, mounted at /pricer like in the host.
createRoot(document.getElementById('root')!).render(
  <StandaloneProviders>
    <Routes>
      <Route path="/pricer/*" element={<App />} />
      <Route path="*" element={<Navigate to="/pricer/1/login" replace />} />
    </Routes>
  </StandaloneProviders>,
);
