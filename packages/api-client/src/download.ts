import { AuthError, HttpError } from './errors';
import { appendQuery, type QueryParams } from './url';
import type { TokenProvider } from './http';

/** The file name a response names in `Content-Disposition` (RFC 6266 `filename*` first), else the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? fallback;
}

/**
 * Downloads a file from an authenticated GET endpoint (exports): fetched with the bearer token, then
 * saved under the name the server gives. Failures throw like the JSON client (HttpError with the
 * server's Chinese message; AuthError after `onAuthError` on 401).
 */
export async function downloadFile(opts: {
  path: string;
  query?: QueryParams;
  getToken?: TokenProvider;
  onAuthError?: (err: AuthError) => void;
  fallbackName: string;
}): Promise<string> {
  const token = (opts.getToken ? await opts.getToken() : '') ?? '';
  const res = await globalThis.fetch(appendQuery(opts.path, opts.query), {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status === 401) {
    const err = new AuthError(await res.text());
    opts.onAuthError?.(err);
    throw err;
  }
  if (!res.ok) throw new HttpError(res.status, await res.text());
  const blob = await res.blob();
  const name = attachmentName(res.headers.get('content-disposition'), opts.fallbackName);
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // Give the browser a moment to start the download before the blob goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}
