/**
 * The customer app's one data layer: every call goes through these hooks (TanStack Query over
 * the shared HTTP client); the wire types are @pfp/contract's.
 */
export type { OrderConditions, TradedGroup } from './client';
export { acknowledgeConfirmation, exportFixings, fetchConfirmation } from './client';
export { pricerKeys } from './keys';
export * from './queries';
export * from './mutations';
export * from './notifications';
export * from './live';
