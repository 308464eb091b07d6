import { CANCELLABLE, ORDER_STATUSES, type OrderStatus } from '@pfp/contract';
import { describe, expect, it } from 'vitest';
import { isFinal, nextStatus, ORDER_TRANSITIONS, type OrderTransition } from './orderLife';

/** ARCHITECTURE §3 "Orders", written out by hand as the reference. */
const EXPECTED: Record<OrderTransition, Partial<Record<OrderStatus, OrderStatus>>> = {
  claim: { PENDING: 'ALIVE' },
  accept: { PENDING: 'ALIVE', ALIVE: 'ALIVE' },
  partFill: { PENDING: 'ALIVE', ALIVE: 'ALIVE', CANCELLED: 'CANCELLED' },
  fill: { PENDING: 'FINISHED', ALIVE: 'FINISHED', CANCELLED: 'FINISHED' },
  end: { PENDING: 'CANCELLED', ALIVE: 'CANCELLED' },
  cancel: { PENDING: 'CANCELLED' },
  requestCancel: { ALIVE: 'ALIVE' },
};

describe('order state machine', () => {
  it('allows exactly the transitions of the design', () => {
    for (const event of Object.keys(EXPECTED) as OrderTransition[]) {
      for (const from of ORDER_STATUSES)
        expect(nextStatus(from, event), `${event} from ${from}`).toBe(EXPECTED[event][from]);
    }
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('never leaves FINISHED, and leaves CANCELLED only by a late fill', () => {
    for (const event of Object.keys(ORDER_TRANSITIONS) as OrderTransition[]) {
      expect(nextStatus('FINISHED', event)).toBeUndefined();
      const after = nextStatus('CANCELLED', event);
      if (after !== undefined) expect(['partFill', 'fill']).toContain(event);
    }
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['FINISHED', 'CANCELLED']);
  });

  it('every status a trader or customer may cancel has a cancel transition', () => {
    for (const s of [...CANCELLABLE.trader, ...CANCELLABLE.pricer]) {
      expect(nextStatus(s, s === 'PENDING' ? 'cancel' : 'requestCancel')).toBeDefined();
    }
  });
});
