import { DomainError } from '../errors';

/**
 * The one error a database view answers to bad input: invalid input with a Chinese message that
 * names the problem (http/errors.ts makes it a 400).
 */
export class ViewError extends DomainError {
  /** 1-based character position in `filter` for syntax errors. */
  readonly position?: number;

  /** `field`: the column at fault (white-list, type and filter errors), or the body parameter when no column is. */
  constructor(message: string, opts: { field?: string | undefined; position?: number | undefined } = {}) {
    super('invalid', message, { field: opts.field });
    if (opts.position !== undefined) this.position = opts.position;
  }

  /** The envelope's error body: `{ code, message, field? }`. */
  toJSON(): { code: 'invalid_input'; message: string; field?: string } {
    return { code: 'invalid_input', message: this.message, ...(this.field !== undefined ? { field: this.field } : {}) };
  }
}

export function isViewError(e: unknown): e is ViewError {
  return e instanceof ViewError;
}
