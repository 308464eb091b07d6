import type { RouteBody, RouteData, RouteDef, RouteQuery, RouteRow, ViewPage, ViewRequest } from '@pfp/contract';
import { AuthError, HttpError, UnexpectedAnswerError } from './errors';
import { appendQuery, joinUrl, type QueryParams } from './url';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | (string & {});

export type TokenProvider = () => string | null | undefined | Promise<string | null | undefined>;

export interface HttpClientOptions {
  /** 例如 `https://host/api`，同源时可为 `''`。 */
  baseUrl: string;
  /** 返回 token；为空时发送 `Authorization: Bearer `（开发模式）。 */
  getToken?: TokenProvider;
  /** 401 时在抛出 AuthError 之前调用。 */
  onAuthError?: (err: AuthError) => void;
  /** 自定义 fetch 实现，默认使用 globalThis.fetch。 */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** 默认：有 body 时 POST，否则 GET。 */
  method?: HttpMethod;
  /** 会被 JSON.stringify；undefined 表示不发送请求体。 */
  body?: unknown;
  query?: QueryParams;
  signal?: AbortSignal;
}

/** A sort column for {@link buildDbViewBody}: a field name (ascending) or `{ field, ascending? }`. */
export type SortInput = string | { field: string; ascending?: boolean };

export interface DbViewParams {
  /** 从 1 开始，默认 1。 */
  page?: number;
  /** 默认 20；0 表示全部（不发送 slice_start / slice_end）。 */
  pageSize?: number;
  filter?: ViewRequest['filter'];
  sortFields?: readonly SortInput[];
  groupByFields?: ViewRequest['group_by_fields'];
  aggregateFields?: ViewRequest['aggregate_fields'];
  /** 其余字段原样放入请求体。 */
  [key: string]: unknown;
}

/** The method and path of a route of the contract; its body and answer types come with `R`. */
export interface RouteRef<R extends RouteDef> {
  method: R['method'];
  path: R['path'];
}

/** What a route takes: its query string (GET) or its body (POST). */
export type RouteInput<R extends RouteDef> = R['method'] extends 'GET' ? RouteQuery<R> : RouteBody<R>;

export interface HttpClient {
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** GET 时 params 作为查询串（跳过 undefined/null），其余方法作为 JSON 请求体。 */
  rpc<T = unknown>(path: string, params?: Record<string, unknown>, method?: HttpMethod): Promise<T>;
  /** POST path，请求体为 `{ ...params }`。 */
  view<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
  /** 分页/排序/分组视图查询，见 {@link buildDbViewBody}。 */
  dbView<T = unknown>(path: string, params: DbViewParams): Promise<T>;
  /**
   * A call of the wire contract (@pfp/contract): GET sends `input` as the query string, POST as
   * the body; resolves with the `data` of `{ result: 'ok', data }` (any other answer is an
   * {@link UnexpectedAnswerError}).
   */
  call<R extends RouteDef>(route: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal): Promise<RouteData<R>>;
  /**
   * A call of a view route, ungrouped: its page's rows are typed by the route's `row` schema
   * (@pfp/contract). A grouped or aggregated call is a plain {@link call}: its rows are records.
   */
  page<R extends RouteDef>(
    route: RouteRef<R>,
    input: RouteInput<R>,
    signal?: AbortSignal,
  ): Promise<ViewPage<RouteRow<R>>>;
}

function isValidPage(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

/** 把 dbView 参数转换为服务端请求体（纯函数，便于测试）。 */
export function buildDbViewBody(params: DbViewParams): ViewRequest & Record<string, unknown> {
  const { page = 1, pageSize = 20, filter, sortFields, groupByFields, aggregateFields, ...rest } = params;
  if (!isValidPage(page)) {
    throw new RangeError(`页码 page 必须是大于等于 1 的整数，当前值: ${String(page)}`);
  }
  if (pageSize !== 0 && !isValidPage(pageSize)) {
    throw new RangeError(`每页条数 pageSize 必须是大于等于 1 的整数（0 表示全部），当前值: ${String(pageSize)}`);
  }
  const body: ViewRequest & Record<string, unknown> = { ...rest };
  body.filter = filter;
  body.sort_fields = sortFields?.map((s) =>
    typeof s === 'string' ? { field: s, ascending: true } : { field: s.field, ascending: s.ascending ?? true },
  );
  if (pageSize !== 0) {
    const sliceStart = (page - 1) * pageSize;
    body.slice_start = sliceStart;
    body.slice_end = sliceStart + pageSize;
  }
  body.group_by_fields = groupByFields;
  body.aggregate_fields = aggregateFields;
  // 去掉值为 undefined 的键，保持请求体整洁（JSON.stringify 也会忽略它们）。
  for (const key of Object.keys(body)) {
    if (body[key] === undefined) delete body[key];
  }
  return body;
}

/** 从 `{ data: { items, total_count } }` 形式的响应中取出列表与总数。 */
export function readItems<T = unknown>(resp: unknown): ViewPage<T> {
  const data = typeof resp === 'object' && resp !== null ? (resp as { data?: unknown }).data : undefined;
  const rec = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const items = Array.isArray(rec.items) ? (rec.items as T[]) : [];
  const total = rec.total_count;
  return { items, total_count: typeof total === 'number' ? total : items.length };
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { baseUrl, getToken, onAuthError } = options;
  // 延迟取 globalThis.fetch，避免浏览器中 "Illegal invocation"。
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    const { body, query, signal } = opts;
    const method = (opts.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase();
    const url = appendQuery(joinUrl(baseUrl, path), query);
    const token = (getToken ? await getToken() : '') ?? '';
    const init: RequestInit = {
      method,
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
      },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (signal) init.signal = signal;

    const res = await doFetch(url, init);
    const text = await res.text();

    if (res.status === 401) {
      const err = new AuthError(text);
      onAuthError?.(err);
      throw err;
    }
    if (!res.ok) throw new HttpError(res.status, text);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`响应不是有效的 JSON（${method} ${url}）: ${text.slice(0, 200)}`);
    }
  }

  function rpc<T = unknown>(path: string, params?: Record<string, unknown>, method: HttpMethod = 'POST'): Promise<T> {
    if (method.toUpperCase() === 'GET') {
      return request<T>(path, { method: 'GET', query: params as QueryParams | undefined });
    }
    return request<T>(path, { method, body: params ?? {} });
  }

  function view<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T> {
    return request<T>(path, { method: 'POST', body: { ...params } });
  }

  async function dbView<T = unknown>(path: string, params: DbViewParams): Promise<T> {
    const body = buildDbViewBody(params);
    return request<T>(path, { method: 'POST', body });
  }

  /** The `data` of a route's `{ result: 'ok', data }`, typed by the contract (the wire is trusted as the server's). */
  async function answer<D>(route: RouteRef<RouteDef>, input: unknown, signal?: AbortSignal): Promise<D> {
    const options: RequestOptions =
      route.method === 'GET'
        ? { method: 'GET', query: input as QueryParams | undefined }
        : { method: route.method, body: input ?? {} };
    if (signal) options.signal = signal;
    const reply = await request<unknown>(route.path, options);
    if (typeof reply !== 'object' || reply === null) throw new UnexpectedAnswerError(route.method, route.path);
    const { result, data } = reply as { result?: unknown; data?: D };
    if (result !== 'ok' || data === undefined) throw new UnexpectedAnswerError(route.method, route.path);
    return data;
  }

  const call = <R extends RouteDef>(route: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal) =>
    answer<RouteData<R>>(route, input, signal);
  const page = <R extends RouteDef>(route: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal) =>
    answer<ViewPage<RouteRow<R>>>(route, input, signal);

  return { request, rpc, view, dbView, call, page };
}
