import { createHttpClient, routeCaller, type AuthError } from '@pfp/api-client';
import type { pricerRoutes } from '@pfp/contract';
import { pricerPaths } from '@pfp/contract/paths';
import { clearSession, readSession } from '../session/session';

/** SPEC §7 "Customer calls", by the contract's methods and paths. */
type Routes = typeof pricerRoutes;

/** A 401 ends the session: 账户已停用 when the trader deactivated the account, else 认证已过期. */
export const endSession = (err: AuthError) =>
  clearSession(err.serverCode === 'account_disabled' ? 'disabled' : 'expired');

/**
 * The customer's calls: same origin, the stored pricer token; a 401 ends the session. `call.page('myOrders', …)`
 * answers a view's page typed by the contract's row schema.
 */
export const call = routeCaller<Routes>(
  createHttpClient({ baseUrl: '', getToken: () => readSession()?.token, onAuthError: endSession }),
  pricerPaths,
);

/**
 * The login and company-name calls. A 401 from pricer-login means wrong credentials, not an
 * expired session, so this client has no auth-error callback and sends no token.
 */
export const publicHttp = createHttpClient({ baseUrl: '' });
export const publicCall = routeCaller<Routes>(publicHttp, pricerPaths);
