import type { ErrorCode } from '@pfp/contract';

/**
 * What went wrong, in the domain's words: a kind, a stable code and a Chinese message (naming the
 * field when one is at fault). The domain knows nothing of HTTP; http/errors.ts maps kinds to
 * status codes, in one place.
 */
export type DomainErrorKind =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many' | 'unavailable';

const DEFAULT_CODE: Record<DomainErrorKind, ErrorCode> = {
  invalid: 'invalid_input',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  too_many: 'too_many_requests',
  unavailable: 'unavailable',
};

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: ErrorCode;
  readonly field: string | undefined;
  /** Where the refusal is resolved (the agreement to sign): the envelope's `link`. */
  readonly link: string | undefined;

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    opts: { code?: ErrorCode; field?: string | undefined; link?: string } = {},
  ) {
    super(message);
    this.code = opts.code ?? DEFAULT_CODE[kind];
    this.field = opts.field;
    this.link = opts.link;
  }
}

export const invalid = (message: string, field?: string) => new DomainError('invalid', message, { field });
export const unauthorized = (message = '未授权访问', code?: ErrorCode) =>
  new DomainError('unauthorized', message, { code });
export const forbidden = (message = '无权访问该资源', code?: ErrorCode) =>
  new DomainError('forbidden', message, { code });
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, code?: ErrorCode) => new DomainError('conflict', message, { code });
/** Too many attempts (login protection): wait and try again. */
export const tooMany = (message: string, code?: ErrorCode) => new DomainError('too_many', message, { code });
/** A computation behind the answer failed for now (a smile fit's worker died twice on it): try again shortly. */
export const unavailable = (message: string) => new DomainError('unavailable', message);
