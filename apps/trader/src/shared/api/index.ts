/**
 * The console's one data layer: every call goes through these hooks (TanStack Query over the
 * shared HTTP client); the wire types are @pfp/contract's. One file per capability holds its calls,
 * its query keys (from keys.ts's one factory) and its hooks; call.ts and context.tsx carry the calls.
 */
export { traderTransport, type FileAccess, type StatusGroup, type TraderTransport } from './call';
export { ApiProvider } from './context';
export { fetchOidcConfig, type OidcConfig } from './config';
export { errorText } from './errors';
export * from './profile';
export * from './orders';
export * from './contracts';
export * from './pricers';
export * from './fixing';
export * from './conditional';
export * from './margin';
export * from './lifecycle';
export * from './notifications';
export { useLiveConsole } from './live';
export * from './agreement';
export * from './statements';
export * from './marginDefaults';
export * from './staff';
export * from './rollApplications';
export * from './pricing';
export * from './authorisedPricers';
