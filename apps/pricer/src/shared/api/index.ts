/**
 * The customer app's one data layer: every call goes through these hooks (TanStack Query over
 * the shared HTTP client); the wire types are @pfp/contract's. One file per capability holds its
 * calls, its query keys (from keys.ts's one factory) and its hooks; call.ts carries the calls.
 */
export { pricerKeys } from './keys';
export * from './session';
export * from './desk';
export * from './conditional';
export * from './history';
export * from './margin';
export * from './lifecycle';
export * from './fixing';
export * from './notifications';
export * from './live';
export * from './agreement';
export * from './statements';
export * from './rollApplications';
