import type { ErrorCode } from '@pfp/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseUnavailableError, DB_MESSAGES, isDatabaseUnavailable } from '../db/resilience';
import { DomainError, type DomainErrorKind } from '../errors';

/** The one place a domain error becomes an HTTP status (ARCHITECTURE §4). */
export const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
  unavailable: 503,
};

export const errorBody = (code: ErrorCode, message: string, field?: string, link?: string) => ({
  result: 'error' as const,
  error: { code, message, ...(field ? { field } : {}), ...(link ? { link } : {}) },
});

/** Failures Fastify itself raises before a handler runs (body parsing, limits). */
const FASTIFY_ERRORS: Record<number, [ErrorCode, string]> = {
  400: ['invalid_json', '请求体不是有效的 JSON'],
  413: ['payload_too_large', '请求内容过大'],
  415: ['unsupported_media_type', '仅支持 JSON 请求'],
  429: ['too_many_requests', '请求过于频繁，请稍后再试'],
};

/**
 * Every failure leaves in the envelope of ARCHITECTURE §4: domain errors (including the route
 * schemas' validation, see http/zod.ts) with their status, Fastify's own 4xx with a Chinese message,
 * anything else as a 500 that is logged and never explained to the caller.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, req, reply) => {
    if (error instanceof DomainError) {
      if (error.kind === 'unavailable') void reply.header('retry-after', '5');
      return reply.code(STATUS_OF[error.kind]).send(errorBody(error.code, error.message, error.field, error.link));
    }
    if (isDatabaseUnavailable(error)) {
      req.log.warn({ err: error }, 'database unavailable: answered 503');
      // Our own errors carry the reason in Chinese (timeout, no answer in time); drivers' do not.
      const message = error instanceof DatabaseUnavailableError ? error.message : DB_MESSAGES.unavailable;
      return reply.code(503).header('retry-after', '5').send(errorBody('db_unavailable', message));
    }
    const status = (error as FastifyError).statusCode;
    const known = status === undefined ? undefined : FASTIFY_ERRORS[status];
    if (known) return reply.code(status!).send(errorBody(known[0], known[1]));
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody('internal', '服务器内部错误'));
  });
}
