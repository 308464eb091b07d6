/** 把 token 作为 `token` 查询参数附加到 WebSocket 地址上（已有查询串时用 `&`）。 */
export function buildWsUrl(url: string, token?: string | null): string {
  if (token === undefined || token === null || token === '') return url;
  const hashIndex = url.indexOf('#');
  const head = hashIndex >= 0 ? url.slice(0, hashIndex) : url;
  const hash = hashIndex >= 0 ? url.slice(hashIndex) : '';
  const sep = !head.includes('?') ? '?' : /[?&]$/.test(head) ? '' : '&';
  return `${head}${sep}token=${encodeURIComponent(token)}${hash}`;
}
