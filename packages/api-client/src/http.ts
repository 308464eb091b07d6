import { AuthError, HttpError } from './errors';
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

export interface SortField {
  field: string;
  /** 默认 true。 */
  ascending?: boolean;
}

export interface DbViewParams {
  /** 从 1 开始，默认 1。 */
  page?: number;
  /** 默认 20；0 表示全部（不发送 slice_start / slice_end）。 */
  pageSize?: number;
  filter?: unknown;
  /** 字符串等价于 `{ field, ascending: true }`。 */
  sortFields?: ReadonlyArray<SortField | string>;
  groupByFields?: readonly string[];
  aggregateFields?: readonly unknown[];
  /** 其余字段原样放入请求体。 */
  [key: string]: unknown;
}

export interface DbViewBody {
  filter?: unknown;
  sort_fields?: Array<{ field: string; ascending: boolean }>;
  slice_start?: number;
  slice_end?: number;
  group_by_fields?: readonly string[];
  aggregate_fields?: readonly unknown[];
  [key: string]: unknown;
}

export interface HttpClient {
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** GET 时 params 作为查询串（跳过 undefined/null），其余方法作为 JSON 请求体。 */
  rpc<T = unknown>(path: string, params?: Record<string, unknown>, method?: HttpMethod): Promise<T>;
  /** POST path，请求体为 `{ ...params }`。 */
  view<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
  /** 分页/排序/分组视图查询，见 {@link buildDbViewBody}。 */
  dbView<T = unknown>(path: string, params: DbViewParams): Promise<T>;
}

function isValidPage(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

/** 把 dbView 参数转换为服务端请求体（纯函数，便于测试）。 */
export function buildDbViewBody(params: DbViewParams): DbViewBody {
  const { page = 1, pageSize = 20, filter, sortFields, groupByFields, aggregateFields, ...rest } = params;
  if (!isValidPage(page)) {
    throw new RangeError(`页码 page 必须是大于等于 1 的整数，当前值: ${String(page)}`);
  }
  if (pageSize !== 0 && !isValidPage(pageSize)) {
    throw new RangeError(`每页条数 pageSize 必须是大于等于 1 的整数（0 表示全部），当前值: ${String(pageSize)}`);
  }
  const body: DbViewBody = { ...rest };
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

export interface ItemsResult<T> {
  items: T[];
  total_count: number;
}

/** 从 `{ data: { items, total_count } }` 形式的响应中取出列表与总数。 */
export function readItems<T = unknown>(resp: unknown): ItemsResult<T> {
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

  return { request, rpc, view, dbView };
}
