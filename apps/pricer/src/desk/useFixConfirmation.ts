import type { MarketEntry, PricerContract } from '@pfp/contract';
import { useState } from 'react';
import { fixPreview, type FixRequest } from './fixPreview';

/** A fix shown for confirmation: what it is, how it is sent, and the form's promise. */
export interface PendingFix {
  request: FixRequest;
  send: () => Promise<void>;
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/** The customer cancelled the confirmation: nothing was sent, the form keeps its values. */
class FixCancelled extends Error {}

/**
 * The fix waiting for the customer's 确认点价 (issue 29): nothing is sent before it. `confirmBeforeFix`
 * is the snapshot's switch; `market` the contract's live quote.
 */
export function useFixConfirmation(
  confirmBeforeFix: boolean | undefined,
  contract: PricerContract | undefined,
  market: MarketEntry | undefined,
) {
  const [pending, setPending] = useState<PendingFix | null>(null);
  const [sending, setSending] = useState(false);

  /** Shows the confirmation; resolves once confirmed and sent, rejects when cancelled or refused. */
  function confirmThen(request: FixRequest, send: () => Promise<void>): Promise<void> {
    // The trader switched the sheet off for an experienced customer (issue 29): sent at once, except a
    // 条件单 the market already meets, which still asks (it would fire at the next tick).
    const skip =
      confirmBeforeFix === false && contract !== undefined && !fixPreview(contract, market, request).firesAtOnce;
    if (skip) return send();
    return new Promise<void>((resolve, reject) => setPending({ request, send, resolve, reject }));
  }

  async function confirmPending() {
    if (!pending || sending) return;
    setSending(true);
    try {
      await pending.send();
      pending.resolve();
    } catch (error) {
      pending.reject(error);
    } finally {
      setSending(false);
      setPending(null);
    }
  }

  function cancelPending() {
    if (!pending || sending) return;
    pending.reject(new FixCancelled());
    setPending(null);
  }

  return { pending, sending, confirmThen, confirmPending, cancelPending };
}
