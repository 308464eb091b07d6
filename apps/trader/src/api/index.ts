export * from './types';
export { createTraderApi, type TraderApi } from './traderApi';
export { ApiProvider, useApi } from './ApiContext';
export { errorText } from './errors';
export { queryKeys } from './queryKeys';
