import {
  createApiRegistry,
  createHttpClient,
  type ApiConfig,
  type ApiRegistry,
  type HttpClient,
} from '@pfp/api-client';
import { createWsClient, type WsClient } from '@pfp/ws-core';

/** SPEC §7: the volatility app's API configuration, both on the page's own origin. */
export function volatilityApiConfig(location: Pick<Location, 'protocol' | 'host'> = window.location): ApiConfig {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return {
    volatilityCurveApi: { type: 'websocket', url: `${scheme}://${location.host}/ws/volatility` },
    baseHttpApi: { type: 'http', url: '' },
  };
}

/** SPEC §7: peek_message every 2 s on the volatility page. */
export const PEEK_INTERVAL_MS = 2000;

let registry: ApiRegistry | undefined;

// Created on first use, not at import, so importing the app opens nothing.
function apis(): ApiRegistry {
  registry ??= createApiRegistry(volatilityApiConfig(), {
    // SPEC §6: the volatility app runs in development mode, without authentication (empty token).
    http: (url) => createHttpClient({ baseUrl: url, getToken: () => '' }),
    websocket: (url) => createWsClient({ url, token: '', peekIntervalMs: PEEK_INTERVAL_MS }),
  });
  return registry;
}

export const baseHttpApi = (): HttpClient => apis().get<HttpClient>('baseHttpApi');
export const volatilityCurveApi = (): WsClient => apis().get<WsClient>('volatilityCurveApi');
