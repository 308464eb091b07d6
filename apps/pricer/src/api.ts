import { createHttpClient } from '@pfp/api-client';
import { clearSession, readSession } from './auth/session';

/** The pricer app's one API client: same origin, the stored pricer token, auth errors end the session. */
export const api = createHttpClient({
  baseUrl: '',
  getToken: () => readSession()?.token,
  onAuthError: () => clearSession('expired'),
});
