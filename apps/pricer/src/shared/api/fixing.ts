import { downloadFile } from '@pfp/api-client';
import type { Confirmation } from '@pfp/contract';
import { pricerPaths } from '@pfp/contract/paths';
import { statementFileName, type StatementRequest } from '@pfp/ui';
import { readSession } from '../session/session';
import { call, endSession } from './call';

/** A customer's price confirmation of one of their orders (docs/fixing.md). */
export function fetchConfirmation(orderId: number): Promise<Confirmation> {
  return call('confirmation', { order_id: orderId });
}

/** The customer acknowledges their confirmation (确认无误, issue 29); answers it with acknowledged_at. */
export function acknowledgeConfirmation(orderId: number): Promise<Confirmation> {
  return call('acknowledgeConfirmation', { order_id: orderId });
}

/** Downloads the customer's own statement; resolves with the file's name. */
export function exportFixings(q: StatementRequest): Promise<string> {
  const { pricer_id: _ignored, ...query } = q;
  return downloadFile({
    path: pricerPaths.exportFixings.path,
    query,
    getToken: () => readSession()?.token,
    onAuthError: endSession,
    fallbackName: statementFileName(q),
  });
}
