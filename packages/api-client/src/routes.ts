import type { RouteDef } from '@pfp/contract';
import type { HttpClient, RouteInput, RouteRef } from './http';

/** Method and path of every route of a contract group; the compiler holds each to the contract's. */
export type RouteRefs<Routes extends Record<string, RouteDef>> = { [K in keyof Routes]: RouteRef<Routes[K]> };

/**
 * Calls a group of the contract's routes by name: `call('cancelOrder', { order_id: 7 })` is typed
 * by `typeof traderRoutes.cancelOrder` (its body and the `data` it answers). The apps pass the
 * contract's schema-free paths (`@pfp/contract/paths`), so no schema code reaches their bundles.
 */
export function routeCaller<Routes extends Record<string, RouteDef>>(http: HttpClient, refs: RouteRefs<Routes>) {
  const call = <K extends keyof Routes & string>(name: K, input: RouteInput<Routes[K]>, signal?: AbortSignal) =>
    http.call<Routes[K]>(refs[name], input, signal);
  /**
   * `call.page('orders', { slice_start: 0, slice_end: 20 })`: a view route's page, its rows typed by
   * the route's row schema (`OrderRow`). Grouped or aggregated, a view is a plain `call` (records).
   */
  const page = <K extends ViewRouteName<Routes>>(name: K, input: RouteInput<Routes[K]>, signal?: AbortSignal) =>
    http.page<Routes[K]>(refs[name], input, signal);
  return Object.assign(call, { page });
}

/** The routes of a group that answer a view's page: their entry names its row. */
export type ViewRouteName<Routes extends Record<string, RouteDef>> = {
  [K in keyof Routes & string]: Routes[K] extends { row: object } ? K : never;
}[keyof Routes & string];
