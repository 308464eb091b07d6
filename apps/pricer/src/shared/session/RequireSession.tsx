import type { ReactNode } from 'react';
import { Navigate, useLocation, useParams } from '@pfp/router';
import { useSession } from './useSession';

/** SPEC "Customer app": unauthenticated visitors go to login, which remembers where they came from. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const { tenantId } = useParams();
  const location = useLocation();
  if (!session || String(session.user.tenant_id) !== tenantId) {
    return <Navigate to={`/pricer/${tenantId}/login`} replace state={{ from: location.pathname + location.search }} />;
  }
  return children;
}
