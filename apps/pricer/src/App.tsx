import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { RequireSession } from './auth/RequireSession';
import { useSession } from './auth/useSession';
import { DeskPage } from './desk/DeskPage';
import { HistoryPage } from './history/HistoryPage';
import { CustomerLayout } from './layout/CustomerLayout';
import { LoginPage } from './login/LoginPage';

function IndexRedirect() {
  const { tenantId } = useParams();
  const session = useSession();
  if (!tenantId) return <Navigate to="/" replace />;
  return <Navigate to={`/pricer/${tenantId}/${session ? 'dashboard' : 'login'}`} replace />;
}

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

/** The customer app's route tree, mounted by the host at /pricer/*. */
export default function PricerApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route path=":tenantId/login" element={<LoginPage />} />
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
          <Route path="*" element={<IndexRedirect />} />
        </Route>
        <Route path="*" element={<IndexRedirect />} />
      </Routes>
    </QueryClientProvider>
  );
}
