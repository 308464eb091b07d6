/**
 * HTTP 错误类型。
 *
 * 服务端错误体通常形如
 * `{"result":"error","error":{"code":"...","message":"中文说明"}}`，
 * 解析成功时通过 `serverMessage` / `serverCode` 暴露给界面展示。
 */

import type { ErrorBody } from '@pfp/contract';

type ParsedServerError = Partial<Pick<ErrorBody, 'message' | 'code'>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 从服务端错误体中解析 `error.message` / `error.code`（非 JSON 或结构不符时返回空对象）。 */
export function parseServerError(body: string): ParsedServerError {
  if (!body) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const err = parsed.error;
  if (typeof err === 'string') return { message: err };
  if (!isRecord(err)) {
    return typeof parsed.message === 'string' ? { message: parsed.message } : {};
  }
  const out: ParsedServerError = {};
  if (typeof err.message === 'string') out.message = err.message;
  if (typeof err.code === 'string') out.code = err.code;
  return out;
}

export class HttpError extends Error {
  readonly status: number;
  /** 原始响应体文本。 */
  readonly body: string;
  /** 服务端返回的中文错误说明（`error.message`），无法解析时为 undefined。 */
  readonly serverMessage: string | undefined;
  /** 服务端返回的错误码（`error.code`），无法解析时为 undefined。 */
  readonly serverCode: string | undefined;

  constructor(status: number, body: string, message?: string) {
    super(message ?? `HTTP error! status: ${status}, body: ${body}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    const parsed = parseServerError(body);
    this.serverMessage = parsed.message;
    this.serverCode = parsed.code;
  }
}

export class AuthError extends HttpError {
  readonly isAuthError = true as const;

  constructor(body: string) {
    super(401, body, `认证失败: ${body || '未授权访问'}`);
    this.name = 'AuthError';
  }
}

/** A 2xx answer that is not the contract's `{ result: 'ok', data }`. */
export class UnexpectedAnswerError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(`响应格式错误（${method} ${path}）`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** The server's Chinese `error.message` of a failed call, when it sent one. */
export function serverMessage(err: unknown): string | undefined {
  return isHttpError(err) ? err.serverMessage : undefined;
}

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}

export function isAuthError(err: unknown): err is AuthError {
  return err instanceof AuthError || (isRecord(err) && err.isAuthError === true);
}
