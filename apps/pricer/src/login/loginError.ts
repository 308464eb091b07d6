import { isHttpError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';

const t = zh.pricer;

/**
 * SPEC §8 "Login error mapping": 401 → wrong credentials, 404 → unknown company code, other
 * messages as they are, else the generic 登录失败. A request that never got an answer (the
 * browser's English "Failed to fetch") is the spec's 登录过程中发生异常.
 */
export function loginErrorMessage(error: unknown): string {
  // An api-client error carries its status: its text also holds the body, which may contain any number.
  if (isHttpError(error)) {
    if (error.status === 401) return t.wrongCredentials;
    if (error.status === 404) return t.companyNotFound;
    if (error.status === 429) return t.tooManyAttempts;
    return error.serverMessage || t.loginFailed;
  }
  const message = error instanceof Error ? error.message : '';
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 401 || message.includes('401')) return t.wrongCredentials;
  if (status === 404 || message.includes('404')) return t.companyNotFound;
  if (error instanceof TypeError) return t.loginException;
  return message || t.loginFailed;
}
