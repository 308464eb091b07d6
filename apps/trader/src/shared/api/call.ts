import { routeCaller, type AuthError, type HttpClient, type TokenProvider } from '@pfp/api-client';
import type { AggregateField, traderRoutes } from '@pfp/contract';
import { traderPaths } from '@pfp/contract/paths';

/**
 * A call of the trader's routes (SPEC §7 "Trader calls") by name; unwraps the `{ result: 'ok', data }`
 * envelope. `call.page('orders', …)` answers a view's page typed by the contract's row schema.
 */
export type TraderCall = ReturnType<typeof routeCaller<typeof traderRoutes>>;

/** How authenticated file downloads get their token (the JSON client keeps its own). */
export interface FileAccess {
  getToken: TokenProvider;
  onAuthError?: (err: AuthError) => void;
}

/** What every capability's calls stand on: the contract's routes over the app's one HTTP client, and downloads. */
export interface TraderTransport {
  call: TraderCall;
  files?: FileAccess;
}

export function traderTransport(http: HttpClient, files?: FileAccess): TraderTransport {
  return { call: routeCaller<typeof traderRoutes>(http, traderPaths), ...(files ? { files } : {}) };
}

/** One row of a view grouped by status: `status` and the aggregates (`${op}_${field}`), as the wire sends them. */
export type StatusGroup = Record<string, unknown>;

/** A view's rows grouped by status, with the given aggregates (the pages' stat cards). */
export const byStatus = (call: TraderCall, view: 'orders' | 'contracts' | 'users', aggregates: AggregateField[]) =>
  call(view, { group_by_fields: ['status'], aggregate_fields: aggregates }).then((p): StatusGroup[] => p.items);
