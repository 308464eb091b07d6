import { isHttpError } from '@pfp/api-client';
import type { SubmitOrderInput } from '@pfp/contract';

/**
 * The desk's idempotency key (client_order_id) for one fixing the customer means to make: fresh
 * for every new submit, the SAME when the customer submits the same order again after a failure
 * that may not have been a failure (no answer, a timeout, a 5xx: the order may exist). The server
 * then answers with the first order instead of fixing twice.
 */
export class SubmitIntent {
  private pending: { order: string; id: string } | undefined;

  /** The key to send with `order`. */
  idFor(order: SubmitOrderInput): string {
    const key = JSON.stringify([order.contract_id, order.quantity, order.price]);
    if (this.pending?.order !== key) this.pending = { order: key, id: newClientOrderId() };
    return this.pending.id;
  }

  /** The submit ended: success or a definite refusal ends the intent; anything else keeps it for a retry. */
  settled(error?: unknown) {
    if (error === undefined || !mayHaveBeenTaken(error)) this.pending = undefined;
  }
}

/** No answer, a timeout or a server error: the order may have been recorded. */
function mayHaveBeenTaken(error: unknown): boolean {
  if (!isHttpError(error)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 0;
}

/** 128 random bits; crypto.getRandomValues works on plain-http pages too (randomUUID does not). */
export function newClientOrderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `desk-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
