import { createHttpClient } from '@pfp/api-client';

/** SPEC §6: the volatility app runs in development mode, without authentication (empty token). */
export const baseHttpApi = createHttpClient({ baseUrl: '', getToken: () => '' });
