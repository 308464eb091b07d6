import type { MarketEntry, PricerContract, TriggerOp } from '@pfp/contract';

/**
 * What the customer is about to fix, before anything is sent (issue 29): the side, the lots and
 * what they weigh, the futures reference the fix will likely fill near, and the goods price and
 * amount that follow (reference + basis; × lots × multiplier). Indicative only: the fill decides.
 */
export type FixRequest =
  | { kind: 'market'; quantity: number }
  | { kind: 'limit'; quantity: number; price: number }
  | {
      kind: 'conditional';
      quantity: number;
      triggerOp: TriggerOp;
      triggerPrice: number;
      /** 0 = market when triggered. */
      orderPrice: number;
      /** ISO instant, or undefined for the deadline's close. */
      expiresAt?: string | undefined;
    };

/** Which price the indicative goods price is built on. */
export type ReferenceSource = 'ask' | 'bid' | 'last' | 'limit' | 'trigger';

export interface FixPreview {
  side: 'BUY' | 'SELL';
  quantity: number;
  multiplier: number | null;
  /** The goods quantity: lots × multiplier (in `unit` when known); null without a multiplier. */
  units: number | null;
  unit: string | null;
  last: number | null;
  bid: number | null;
  ask: number | null;
  reference: number | null;
  referenceSource: ReferenceSource;
  basis: number;
  /** reference + basis (元 per unit). */
  goodsPrice: number | null;
  /** goodsPrice × lots × multiplier (元). */
  amount: number | null;
  /** A market order (or a condition that sends one): it meets the other side, whatever the reference. */
  marketRisk: boolean;
  /** A condition whose trigger the last price already meets: it fires at the next tick. */
  firesAtOnce: boolean;
}

const known = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;

/** Money without float noise (2 decimals). */
const cents = (v: number) => Math.round(v * 100) / 100;

/** Whether the last price already meets a trigger. */
export function triggerMet(op: TriggerOp, triggerPrice: number, last: number | null): boolean {
  if (last === null) return false;
  return op === '>=' ? last >= triggerPrice : last <= triggerPrice;
}

/**
 * The trigger direction that favours the customer: a buyer waits for the price to come down to the
 * trigger (≤), a seller for it to rise (≥).
 */
export function favourableTriggerOp(side: 'BUY' | 'SELL'): TriggerOp {
  return side === 'BUY' ? '<=' : '>=';
}

export function fixPreview(
  contract: Pick<PricerContract, 'direction' | 'basis' | 'multiplier'> & { unit?: string | null },
  market: Partial<MarketEntry> | undefined,
  request: FixRequest,
): FixPreview {
  const side = contract.direction;
  const last = known(market?.last_price);
  const bid = known(market?.bid_price);
  const ask = known(market?.ask_price);
  const multiplier = contract.multiplier && contract.multiplier > 0 ? contract.multiplier : null;
  let reference: number | null;
  let referenceSource: ReferenceSource;
  let marketRisk = false;
  let firesAtOnce = false;
  if (request.kind === 'limit') {
    reference = request.price;
    referenceSource = 'limit';
  } else if (request.kind === 'conditional') {
    firesAtOnce = triggerMet(request.triggerOp, request.triggerPrice, last);
    if (request.orderPrice > 0) {
      reference = request.orderPrice;
      referenceSource = 'limit';
    } else if (firesAtOnce) {
      // It fires now as a market order: it meets today's other side.
      const other = side === 'BUY' ? ask : bid;
      reference = other ?? last;
      referenceSource = other !== null ? (side === 'BUY' ? 'ask' : 'bid') : 'last';
      marketRisk = true;
    } else {
      reference = request.triggerPrice;
      referenceSource = 'trigger';
      marketRisk = true;
    }
  } else {
    // A market order meets the other side: a buyer pays the ask, a seller gets the bid.
    const other = side === 'BUY' ? ask : bid;
    reference = other ?? last;
    referenceSource = other !== null ? (side === 'BUY' ? 'ask' : 'bid') : 'last';
    marketRisk = true;
  }
  const basis = contract.basis ?? 0;
  const goodsPrice = reference !== null ? cents(reference + basis) : null;
  const amount = goodsPrice !== null && multiplier !== null ? cents(goodsPrice * request.quantity * multiplier) : null;
  return {
    side,
    quantity: request.quantity,
    multiplier,
    units: multiplier !== null ? request.quantity * multiplier : null,
    unit: contract.unit ?? null,
    last,
    bid,
    ask,
    reference,
    referenceSource,
    basis,
    goodsPrice,
    amount,
    marketRisk,
    firesAtOnce,
  };
}
