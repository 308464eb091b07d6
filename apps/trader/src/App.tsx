import { createHttpClient } from '@pfp/api-client';
import { createQueryClient } from '@pfp/api-client/query';
import { zh } from '@pfp/i18n';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes, useLocation } from '@pfp/router';
import { LayoutShell } from './app/LayoutShell';
import { NAV } from './app/nav';
import { RequireTenant } from './app/RequireTenant';
import { AgreementPage } from './agreement/AgreementPage';
import { AuditPage } from './audit/AuditPage';
import { AuthGuard, AuthProvider } from './auth/AuthContext';
import { traderAuth } from './auth/browserAuth';
import { ConditionalPage } from './conditional/ConditionalPage';
import { ContractsPage } from './contracts/ContractsPage';
import { RollApplicationsPage } from './contracts/RollApplicationsPage';
import { DashboardPage } from './dashboard/DashboardPage';
import { ExposurePage } from './exposure/ExposurePage';
import { MarginPage } from './margin/MarginPage';
import { WebhookPage } from './notifications/WebhookPage';
import { PricersPage } from './pricers/PricersPage';
import { StructurePricingPage } from './pricing/StructurePricingPage';
import { StatementsPage } from './statements/StatementsPage';
import { ApprovalsPage } from './staff/ApprovalsPage';
import { StaffPage } from './staff/StaffPage';
import { ApiProvider, traderTransport, useLiveConsole } from './shared/api';

const auth = traderAuth();
// The one HTTP client of the app: every call waits for a token with at least 30 s left.
const transport = traderTransport(
  createHttpClient({
    baseUrl: '',
    getToken: () => auth.getAccessToken(),
    onAuthError: () => auth.handleAuthError(),
  }),
  { getToken: () => auth.getAccessToken(), onAuthError: () => auth.handleAuthError() },
);
const queryClient = createQueryClient();
const liveToken = () => auth.getAccessToken().catch(() => undefined);

/** The company's changes pushed over /ws: the order stream, counts and exposure re-read at once (docs/live.md). */
function LiveConsole() {
  useLiveConsole(liveToken);
  return null;
}

/** Unknown paths go to the dashboard, keeping the query (?theme=dark). */
function ToDashboard() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/trader/dashboard', search }} replace />;
}

/** The trader console's route tree, mounted by the host at /trader/*. */
export default function TraderApp() {
  return (
    <AuthProvider auth={auth}>
      <ApiProvider transport={transport}>
        <QueryClientProvider client={queryClient}>
          <AuthGuard>
            <LiveConsole />
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
                <Route
                  path="exposure"
                  element={
                    <RequireTenant>
                      <ExposurePage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="roll-applications"
                  element={
                    <RequireTenant>
                      <RollApplicationsPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="pricing"
                  element={
                    <RequireTenant>
                      <StructurePricingPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="margin"
                  element={
                    <RequireTenant>
                      <MarginPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="agreement"
                  element={
                    <RequireTenant>
                      <AgreementPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="notifications"
                  element={
                    <RequireTenant>
                      <WebhookPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="audit"
                  element={
                    <RequireTenant>
                      <AuditPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="conditional"
                  element={
                    <RequireTenant>
                      <ConditionalPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="statements"
                  element={
                    <RequireTenant>
                      <StatementsPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="approvals"
                  element={
                    <RequireTenant>
                      <ApprovalsPage />
                    </RequireTenant>
                  }
                />
                <Route
                  path="staff"
                  element={
                    <RequireTenant>
                      <StaffPage />
                    </RequireTenant>
                  }
                />
                <Route path="*" element={<ToDashboard />} />
              </Routes>
            </LayoutShell>
          </AuthGuard>
        </QueryClientProvider>
      </ApiProvider>
    </AuthProvider>
  );
}
