export {
  HttpError,
  AuthError,
  UnexpectedAnswerError,
  isHttpError,
  isAuthError,
  parseServerError,
  serverMessage,
} from './errors';
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
  type SortInput,
  type RouteRef,
  type RouteInput,
} from './http';
export { routeCaller, type RouteRefs } from './routes';
export {
  createApiRegistry,
  type ApiConfig,
  type ApiEndpointConfig,
  type ApiFactories,
  type ApiRegistry,
  type ApiType,
} from './registry';
export { joinUrl, buildQuery, appendQuery, type QueryParams, type QueryValue } from './url';
export { attachmentName, downloadFile } from './download';
