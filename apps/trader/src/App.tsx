import { createHttpClient, isHttpError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes } from 'react-router';
import { ApiProvider, createTraderApi } from './api';
import { AuthGuard, AuthProvider } from './auth/AuthContext';
import { traderAuth } from './auth/browserAuth';
import { ContractsPage } from './contracts/ContractsPage';
import { DashboardPage } from './dashboard/DashboardPage';
import { LayoutShell } from './layout/LayoutShell';
import { NAV } from './nav';
import { PricersPage } from './pricers/PricersPage';
import { RequireTenant } from './shared/RequireTenant';

const auth = traderAuth();
// The one HTTP client of the app: every call waits for a token with at least 30 s left.
const api = createTraderApi(
  createHttpClient({
    baseUrl: '',
    getToken: () => auth.getAccessToken(),
    onAuthError: () => auth.handleAuthError(),
  }),
);
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change on a retry; a network or server error gets one more try.
      retry: (count, err) => !(isHttpError(err) && err.status < 500) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

/** The trader console's route tree, mounted by the host at /trader/*. */
export default function TraderApp() {
  return (
    <AuthProvider auth={auth}>
      <ApiProvider api={api}>
        <QueryClientProvider client={queryClient}>
          <AuthGuard>
            <LayoutShell title={zh.app.traderHeader} nav={NAV}>
              <Routes>
                <Route
                  path="dashboard"
                  element={
                    <RequireTenant>
                      <DashboardPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="pricers"
                  element={
                    <RequireTenant>
                      <PricersPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="contracts"
                  element={
                    <RequireTenant>
                      <ContractsPage />
                    </RequireTenant>
                  }
                />
                <Route path="*" element={<Navigate to="/trader/dashboard" replace />} />
              </Routes>
            </LayoutShell>
          </AuthGuard>
        </QueryClientProvider>
      </ApiProvider>
    </AuthProvider>
  );
}
