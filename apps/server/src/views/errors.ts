/**
 * The one error a database view answers to bad input: HTTP 400 with a Chinese message that names the problem.
 * `statusCode` is set as well so Fastify's default error handler answers 400 (not 500) even without a custom
 * handler.
 */
export class ViewError extends Error {
  override readonly name = 'ViewError';
  readonly status = 400 as const;
  readonly statusCode = 400 as const;
  readonly code = 'INVALID_VIEW_PARAMS' as const;
  /** The column at fault (white-list, type and filter errors), or the body parameter when no column is. */
  readonly field?: string;
  /** 1-based character position in `filter` for syntax errors. */
  readonly position?: number;

  constructor(message: string, opts: { field?: string | undefined; position?: number | undefined } = {}) {
    super(message);
    if (opts.field !== undefined) this.field = opts.field;
    if (opts.position !== undefined) this.position = opts.position;
  }

  /** The response body routes send: `{ code, message, field? }`. */
  toJSON(): { code: 'INVALID_VIEW_PARAMS'; message: string; field?: string } {
    return { code: this.code, message: this.message, ...(this.field !== undefined ? { field: this.field } : {}) };
  }
}

export function isViewError(e: unknown): e is ViewError {
  return e instanceof ViewError;
}
