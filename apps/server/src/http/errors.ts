import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

/** A failure the client can act on: the status, a stable code and a Chinese message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new ApiError(400, 'INVALID_INPUT', message, field);
export const unauthorized = (message = '未授权访问') => new ApiError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = '无权访问该资源') => new ApiError(403, 'FORBIDDEN', message);
export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message);
export const conflict = (message: string, code = 'CONFLICT') => new ApiError(409, code, message);

export const errorBody = (code: string, message: string, field?: string) => ({
  result: 'error' as const,
  error: { code, message, ...(field ? { field } : {}) },
});

/** Every failure leaves in the envelope of ARCHITECTURE §4; internals are logged, never sent. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, req, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.status).send(errorBody(error.code, error.message, error.field));
    }
    const status = (error as { status?: number }).status;
    const code = (error as { code?: string }).code;
    if (status === 400 && typeof code === 'string' && error.message) {
      // e.g. the view engine's ViewError: already a Chinese message naming the field.
      return reply.code(400).send(errorBody(code, error.message, (error as { field?: string }).field));
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const field = issue?.path.join('.') || undefined;
      return reply.code(400).send(errorBody('INVALID_INPUT', issue?.message ?? '请求参数无效', field));
    }
    const fe = error as FastifyError;
    if (fe.statusCode === 413) return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE', '请求内容过大'));
    if (fe.statusCode === 429) return reply.code(429).send(errorBody('TOO_MANY_REQUESTS', '请求过于频繁，请稍后再试'));
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fe.statusCode === 400
    ) {
      return reply.code(400).send(errorBody('INVALID_JSON', '请求体不是有效的 JSON'));
    }
    if (fe.statusCode === 415) return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE', '仅支持 JSON 请求'));
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody('INTERNAL', '服务器内部错误'));
  });
}
