/** 查询参数值：undefined / null 会被跳过，数组会展开为重复的键，对象会序列化为 JSON。 */
export type QueryValue = string | number | boolean | null | undefined | readonly unknown[] | object;
export type QueryParams = Record<string, QueryValue>;

/** 拼接 baseUrl 与 path，避免出现双斜杠；baseUrl 为空字符串时表示同源。 */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(path)) return path; // 已是绝对地址
  const base = baseUrl.replace(/\/+$/, '');
  const rel = path.replace(/^\/+/, '');
  if (!rel) return base || '/';
  return `${base}/${rel}`;
}

function encodeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** 构造查询字符串（不含前导 `?`），跳过 undefined / null。 */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item === undefined || item === null) continue;
        search.append(key, encodeValue(item));
      }
    } else {
      search.append(key, encodeValue(value));
    }
  }
  return search.toString();
}

/** 把查询参数追加到 url（已有 `?` 时用 `&` 连接）。 */
export function appendQuery(url: string, params: QueryParams | undefined): string {
  const qs = buildQuery(params);
  if (!qs) return url;
  const hashIndex = url.indexOf('#');
  const hash = hashIndex >= 0 ? url.slice(hashIndex) : '';
  const head = hashIndex >= 0 ? url.slice(0, hashIndex) : url;
  const sep = !head.includes('?') ? '?' : /[?&]$/.test(head) ? '' : '&';
  return `${head}${sep}${qs}${hash}`;
}
