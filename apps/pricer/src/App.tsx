import { createQueryClient } from '@pfp/api-client/query';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes, useParams } from '@pfp/router';
import { AgreementPage } from './agreement/AgreementPage';
import { DeskPage } from './desk/DeskPage';
import { HistoryPage } from './history/HistoryPage';
import { StatementPage } from './statement/StatementPage';
import { CustomerLayout } from './layout/CustomerLayout';
import { LoginPage } from './login/LoginPage';
import { pricerKeys } from './shared/api';
import { RequireSession } from './shared/session/RequireSession';
import { onSessionChange } from './shared/session/session';
import { useSession } from './shared/session/useSession';

function IndexRedirect() {
  const { tenantId } = useParams();
  const session = useSession();
  if (!tenantId) return <Navigate to="/" replace />;
  const signedIn = session !== null && String(session.user.tenant_id) === tenantId;
  return <Navigate to={`/pricer/${tenantId}/${signedIn ? 'dashboard' : 'login'}`} replace />;
}

/** A fresh login form per company code (the demo prefill depends on it). */
function LoginRoute() {
  const { tenantId } = useParams();
  return <LoginPage key={tenantId} />;
}

const queryClient = createQueryClient();
// Nothing of one customer stays in memory for the next one on this device.
onSessionChange(() => queryClient.removeQueries({ queryKey: pricerKeys.all }));

/** The customer app's route tree, mounted by the host at /pricer/*. */
export default function PricerApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route path=":tenantId/login" element={<LoginRoute />} />
        <Route
          path=":tenantId"
          element={
            <RequireSession>
              <CustomerLayout />
            </RequireSession>
          }
        >
          <Route index element={<IndexRedirect />} />
          <Route path="dashboard" element={<DeskPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="agreement" element={<AgreementPage />} />
          <Route path="statement" element={<StatementPage />} />
          <Route path="*" element={<IndexRedirect />} />
        </Route>
        <Route path="*" element={<IndexRedirect />} />
      </Routes>
    </QueryClientProvider>
  );
}
