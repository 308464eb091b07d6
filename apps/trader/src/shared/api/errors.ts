import { serverMessage } from '@pfp/api-client';
import { zh } from '@pfp/i18n';

/** What a toast shows of a failed call: the server's Chinese error.message, else the error's own text. */
export function errorText(err: unknown): string {
  const fromServer = serverMessage(err);
  if (fromServer) return fromServer;
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return zh.trader.common.unknownError;
}
