import { createHttpClient } from '@pfp/api-client';
import type { AppConfig, appRoutes } from '@pfp/contract';
import { appPaths } from '@pfp/contract/paths';

export type OidcConfig = AppConfig['oidc'];

function isOidcConfig(value: unknown): value is OidcConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.authority === 'string' && v.authority !== '' && typeof v.client_id === 'string' && v.client_id !== '';
}

/**
 * The app config (`appPaths.config`): where traders sign in. Read before anyone is signed in (no token, no React),
 * so it is a plain call rather than a query.
 */
export async function fetchOidcConfig(): Promise<OidcConfig> {
  const http = createHttpClient({ baseUrl: '' });
  const config = await http.call<(typeof appRoutes)['config']>(appPaths.config, undefined);
  if (!isOidcConfig(config?.oidc))
    throw new Error(`Invalid ${appPaths.config.path}: missing oidc.authority or oidc.client_id`);
  return config.oidc;
}
