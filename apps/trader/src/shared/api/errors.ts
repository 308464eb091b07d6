import { isHttpError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';

/**
 * What a toast or an alert shows of a failed call: the server's Chinese error.message, else a
 * Chinese message of the error itself. Never the transport's English ('HTTP error! status: …,
 * body: {…}', 'Failed to fetch').
 */
export function errorText(err: unknown): string {
  if (isHttpError(err)) return err.serverMessage?.trim() || zh.trader.common.requestFailed(err.status);
  if (err instanceof Error && /[\u4e00-\u9fff]/.test(err.message)) return err.message;
  return zh.trader.common.unknownError;
}
