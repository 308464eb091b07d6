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
  return <K extends keyof Routes & string>(name: K, input: RouteInput<Routes[K]>, signal?: AbortSignal) =>
    http.call<Routes[K]>(refs[name], input, signal);
}
