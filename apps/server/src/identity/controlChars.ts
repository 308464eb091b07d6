import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../platform/http/errors';

/** NUL and the other C0 controls and DEL: no OpenID parameter may carry one (issue 30). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The first parameter of the query string (or a parsed form body) holding a control character. */
export function controlCharParam(url: string, body?: unknown): string | undefined {
  const q = url.indexOf('?');
  if (q >= 0) {
    let params: URLSearchParams;
    try {
      params = new URLSearchParams(url.slice(q + 1));
    } catch {
      return 'query';
    }
    for (const [k, v] of params) if (CONTROL.test(k) || CONTROL.test(v)) return CONTROL.test(k) ? 'query' : k;
  }
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body as Record<string, unknown>))
      if (CONTROL.test(k) || (typeof v === 'string' && CONTROL.test(v))) return CONTROL.test(k) ? 'body' : k;
  }
  return undefined;
}

/**
 * A hook for the provider's routes: a parameter with a control character is a 400 in Chinese naming
 * it, before the provider (or our pages) see it — it used to end in a 500 with a stack trace.
 */
export async function refuseControlChars(req: FastifyRequest, reply: FastifyReply) {
  const field = controlCharParam(req.url, req.body);
  if (field === undefined) return;
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .send(errorBody('invalid_input', `请求参数 ${field} 含有非法的控制字符`, field));
}
