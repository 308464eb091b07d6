/**
 * The console's one data layer: every call goes through these hooks (TanStack Query over the
 * shared HTTP client); the wire types are @pfp/contract's.
 */
export { createTraderApi, type StatusGroup, type TraderApi } from './client';
export { ApiProvider } from './context';
export { fetchOidcConfig, type OidcConfig } from './config';
export { errorText } from './errors';
export { traderKeys } from './keys';
export * from './queries';
export * from './mutations';
export * from './fixing';
export * from './conditional';
export * from './margin';
export { useContractDetail, useExtendDeadline, useRollContract } from './lifecycle';
export type { FileAccess } from './fixingApi';
export * from './notifications';
export type { WebhookDeliveryRow } from './notificationsApi';
export { useLiveConsole } from './live';
