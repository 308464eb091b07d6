import { describe, expect, it } from 'vitest';
import { favourableTriggerOp, fixPreview, triggerMet } from './fixPreview';

const copper = { direction: 'BUY' as const, basis: 150, multiplier: 5, unit: '吨' };
const market = { last_price: 80_000, bid_price: 79_990, ask_price: 80_010, price_tick: 10 };

describe('fixPreview', () => {
  it('a market buy is priced at the ask: goods price = ask + basis, amount = price × lots × multiplier', () => {
    const p = fixPreview(copper, market, { kind: 'market', quantity: 2 });
    expect(p.reference).toBe(80_010);
    expect(p.referenceSource).toBe('ask');
    expect(p.goodsPrice).toBe(80_160);
    expect(p.amount).toBe(80_160 * 2 * 5);
    expect(p.units).toBe(10);
    expect(p.unit).toBe('吨');
    expect(p.marketRisk).toBe(true);
  });

  it('a market sell is priced at the bid; without bid/ask at the last price', () => {
    const sell = { ...copper, direction: 'SELL' as const, basis: -120 };
    expect(fixPreview(sell, market, { kind: 'market', quantity: 1 }).goodsPrice).toBe(79_870);
    const p = fixPreview(sell, { last_price: 80_000 }, { kind: 'market', quantity: 1 });
    expect(p.referenceSource).toBe('last');
    expect(p.goodsPrice).toBe(79_880);
  });

  it('a limit order is priced at its limit, with no market risk', () => {
    const p = fixPreview(copper, market, { kind: 'limit', quantity: 3, price: 79_500 });
    expect(p.referenceSource).toBe('limit');
    expect(p.goodsPrice).toBe(79_650);
    expect(p.amount).toBe(79_650 * 3 * 5);
    expect(p.marketRisk).toBe(false);
  });

  it('without a multiplier there is no amount and no units; without a quote no price', () => {
    const p = fixPreview({ ...copper, multiplier: null, unit: undefined }, market, {
      kind: 'limit',
      quantity: 1,
      price: 1,
    });
    expect(p.amount).toBeNull();
    expect(p.units).toBeNull();
    expect(p.unit).toBeNull();
    const q = fixPreview(copper, undefined, { kind: 'market', quantity: 1 });
    expect(q.goodsPrice).toBeNull();
    expect(q.amount).toBeNull();
  });

  it('a condition already met fires at once (priced at the other side); one not met is priced at its trigger', () => {
    const met = fixPreview(copper, market, {
      kind: 'conditional',
      quantity: 1,
      triggerOp: '<=',
      triggerPrice: 80_500,
      orderPrice: 0,
    });
    expect(met.firesAtOnce).toBe(true);
    expect(met.referenceSource).toBe('ask');
    const waits = fixPreview(copper, market, {
      kind: 'conditional',
      quantity: 1,
      triggerOp: '<=',
      triggerPrice: 79_000,
      orderPrice: 0,
    });
    expect(waits.firesAtOnce).toBe(false);
    expect(waits.referenceSource).toBe('trigger');
    expect(waits.goodsPrice).toBe(79_150);
  });

  it('the favourable trigger: a buyer waits for ≤, a seller for ≥', () => {
    expect(favourableTriggerOp('BUY')).toBe('<=');
    expect(favourableTriggerOp('SELL')).toBe('>=');
    expect(triggerMet('>=', 100, 100)).toBe(true);
    expect(triggerMet('>=', 100, 99)).toBe(false);
    expect(triggerMet('<=', 100, null)).toBe(false);
  });
});
