export { HttpError, AuthError, isHttpError, isAuthError, parseServerError } from './errors';
export {
  createHttpClient,
  buildDbViewBody,
  readItems,
  type HttpClient,
  type HttpClientOptions,
  type HttpMethod,
  type RequestOptions,
  type TokenProvider,
  type DbViewParams,
  type DbViewBody,
  type SortField,
  type ItemsResult,
} from './http';
export {
  createApiRegistry,
  type ApiConfig,
  type ApiEndpointConfig,
  type ApiFactories,
  type ApiRegistry,
  type ApiType,
} from './registry';
export { joinUrl, buildQuery, appendQuery, type QueryParams, type QueryValue } from './url';
