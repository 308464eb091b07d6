import { zh } from '@pfp/i18n';

const t = zh.pricer;

/** SPEC §8 "Login error mapping": 401 → wrong credentials, 404 → unknown company code, else as is. */
export function loginErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 401 || message.includes('401')) return t.wrongCredentials;
  if (status === 404 || message.includes('404')) return t.companyNotFound;
  return message || t.loginFailed;
}
