import { accumulator, black76Price, tradingDays, yearFraction } from '@pfp/quant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { shanghaiToday } from '../contracts/fixingTerms';
import type { Quote } from '../../platform/quote';

/*
 * 含权报价 over HTTP (issue 44, docs/pricing.md): the real app, a what-if market, and a live one whose option chain
 * is priced at a known volatility.
 */

let h: Harness;
let t: Tenant;
const FUTURE = 'SHFE.cu2609';
const LIVE_F = 80_000;
const LIVE_VOL = 0.22;
const today = shanghaiToday();
const later = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const OPTION_EXPIRY = later(40);

const quote = (symbol: string, last: number, bid: number | null = null, ask: number | null = null) =>
  ({ symbol, last_price: last, bid_price1: bid, ask_price1: ask }) as Quote;
const optionPrice = (isCall: boolean) => black76Price(LIVE_F, 80_000, Math.max(40, 1) / 365, 0.015, isCall, LIVE_VOL);

const price = (body: Record<string, unknown>) => h.call('/api/trader/rpc/price-structure', body, t.token);
const market = { forward: 5000, vol: 0.3, rate: 0.02, valuation_date: '2027-01-04' };

beforeAll(async () => {
  h = await startHarness({
    quote: (s) => (s === FUTURE ? quote(s, LIVE_F) : undefined),
    optionMarket: {
      optionChain: (f) =>
        f !== FUTURE
          ? []
          : ((['CALL', 'PUT'] as const).flatMap((optionType) =>
              [78_000, 80_000, 82_000].map((strike) => ({
                symbol: `SHFE.cu2609${optionType[0]}${strike}`,
                underlying: FUTURE,
                optionType,
                strike,
                expiry: OPTION_EXPIRY,
              })),
            ) as never),
      getQuote: (s) => {
        if (s === 'SHFE.cu2609C80000') return quote(s, 1, optionPrice(true) - 5, optionPrice(true) + 5);
        if (s === 'SHFE.cu2609P80000') return quote(s, optionPrice(false));
        return undefined;
      },
    },
  });
  t = await setupTenant(h, 'trader-pricing', '含权贸易', []);
});

afterAll(async () => {
  await h.close();
});

describe('POST /api/trader/rpc/price-structure', () => {
  it('prices a vanilla on a what-if market: Black-76, Greeks, the market echoed', async () => {
    const res = await price({
      structure: { kind: 'vanilla', instrument_id: FUTURE, option_type: 'call', strike: 5100, expiry: '2027-04-04' },
      market,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.price).toBeCloseTo(black76Price(5000, 5100, 90 / 365, 0.02, true, 0.3), 9);
    expect(d.delta).toBeGreaterThan(0);
    expect(d).toMatchObject({ forward: 5000, vol: 0.3, rate: 0.02, vol_source: 'market', standard_error: null });
    expect(d.multiplier).toBeUndefined();
    // A catalogue future: its multiplier and unit for the console's 元 and 手.
    const listed = await price({
      structure: { kind: 'vanilla', instrument_id: t.symbol, option_type: 'call', strike: 5100, expiry: '2027-04-04' },
      market,
    });
    expect(listed.body.data).toMatchObject({ multiplier: 5, unit: '吨' });
  });

  it('prices a part-fixed Asian, a knock-out and an accumulator, and solves the zero-cost strike', async () => {
    const asian = await price({
      structure: {
        kind: 'asian',
        instrument_id: FUTURE,
        option_type: 'put',
        strike: 5000,
        average_start: '2026-12-28',
        average_end: '2027-01-29',
        fixings: [4980, 5010, 5020, 4990, 5000],
      },
      market,
    });
    expect(asian.status, JSON.stringify(asian.body)).toBe(200);
    expect(asian.body.data.price).toBeGreaterThan(0);
    const barrier = await price({
      structure: {
        kind: 'barrier',
        instrument_id: FUTURE,
        option_type: 'call',
        strike: 5000,
        expiry: '2027-02-26',
        barrier: 5500,
        barrier_type: 'up_out',
        rebate: 10,
      },
      market,
    });
    expect(barrier.status, JSON.stringify(barrier.body)).toBe(200);
    expect(barrier.body.data.price).toBeLessThan(black76Price(5000, 5000, 53 / 365, 0.02, true, 0.3));
    const terms = {
      kind: 'accumulator',
      instrument_id: FUTURE,
      side: 'buy',
      barrier: 5300,
      leverage: 2,
      quantity_per_day: 10,
      start: '2027-01-05',
      end: '2027-03-31',
    };
    const solved = await price({ structure: { ...terms, solve: 'strike' }, market });
    expect(solved.status, JSON.stringify(solved.body)).toBe(200);
    const K = solved.body.data.strike as number;
    expect(K).toBeGreaterThan(4000);
    expect(K).toBeLessThan(5300);
    expect(Math.abs(solved.body.data.price)).toBeLessThan(1e-3);
    const days = tradingDays('2027-01-05', '2027-03-31').map((d) => yearFraction('2027-01-04', d));
    const direct = accumulator({
      F: 5000,
      K: 4900,
      sigma: 0.3,
      r: 0.02,
      side: 'buy',
      barrier: 5300,
      leverage: 2,
      quantityPerDay: 10,
      times: days,
    });
    const at4900 = await price({ structure: { ...terms, strike: 4900 }, market });
    expect(at4900.body.data.price).toBeCloseTo(direct.price, 6);
    expect(at4900.body.data.observations).toBe(days.length);
  });

  it('prices on the live future with the chain’s at-the-money volatility, and says so', async () => {
    const res = await price({
      structure: { kind: 'vanilla', instrument_id: FUTURE, option_type: 'put', strike: 79_000, expiry: later(30) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.forward).toBe(LIVE_F);
    expect(res.body.data.vol).toBeCloseTo(LIVE_VOL, 6);
    expect(res.body.data.vol_source).toBe('atm');
    expect(res.body.data.note).toMatch(/平值隐含波动率/);
    expect(res.body.data.valuation_date).toBe(today);
    // The chain's market points to read the used vol against (the one strike with quotes).
    expect(res.body.data.chain_vols.expiry).toBe(OPTION_EXPIRY);
    expect(res.body.data.chain_vols.points).toHaveLength(1);
    expect(res.body.data.chain_vols.points[0].strike).toBe(80_000);
    expect(res.body.data.chain_vols.points[0].vol).toBeCloseTo(LIVE_VOL, 6);
  });

  it('refuses bad terms with a Chinese message naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        {
          kind: 'barrier',
          instrument_id: FUTURE,
          option_type: 'call',
          strike: 5000,
          expiry: '2027-02-26',
          barrier: 4800,
          barrier_type: 'up_out',
        },
        'structure.barrier',
        /向上障碍的障碍价须高于当前期货价格/,
      ],
      [
        {
          kind: 'asian',
          instrument_id: FUTURE,
          option_type: 'call',
          strike: 5000,
          average_start: '2026-11-02',
          average_end: '2026-11-30',
        },
        'structure.average_end',
        /均价窗口已结束/,
      ],
      [
        {
          kind: 'accumulator',
          instrument_id: FUTURE,
          side: 'buy',
          strike: 4900,
          barrier: 5300,
          leverage: 0.5,
          quantity_per_day: 1,
          start: '2027-01-05',
          end: '2027-02-05',
        },
        'structure.leverage',
        /杠杆不能小于 1/,
      ],
      [
        {
          kind: 'accumulator',
          instrument_id: FUTURE,
          side: 'sell',
          strike: 4900,
          barrier: 5300,
          leverage: 2,
          quantity_per_day: 1,
          start: '2027-01-05',
          end: '2027-02-05',
        },
        'structure.barrier',
        /累沽的敲出价须低于当前期货价格/,
      ],
      [
        { kind: 'vanilla', instrument_id: FUTURE, option_type: 'call', strike: 5000, expiry: '2026-12-01' },
        'structure.expiry',
        /到期日须晚于估值日/,
      ],
      [
        { kind: 'vanilla', instrument_id: FUTURE, option_type: 'call', expiry: '2027-03-01' },
        'structure.strike',
        /请填写行权价/,
      ],
      [
        {
          kind: 'asian',
          instrument_id: FUTURE,
          option_type: 'call',
          strike: 5000,
          average_start: '2026-12-28',
          average_end: '2027-01-29',
          fixings: [5000],
        },
        'structure.fixings',
        /缺少已定价格/,
      ],
    ];
    for (const [structure, field, message] of cases) {
      const res = await price({ structure, market });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.field).toBe(field);
      expect(res.body.error.message).toMatch(message);
    }
    const kind = await price({ structure: { kind: 'swap', instrument_id: FUTURE }, market });
    expect(kind.status).toBe(400);
    expect(kind.body.error.message).toMatch(/结构类型/);
    const vol = await price({
      structure: { kind: 'vanilla', instrument_id: FUTURE, option_type: 'call', strike: 1, expiry: '2027-03-01' },
      market: { ...market, vol: -1 },
    });
    expect(vol.status).toBe(400);
    expect(vol.body.error.message).toMatch(/波动率必须大于 0/);
  });

  it('refuses the live market when the future has no quote or no priced option', async () => {
    const none = await price({
      structure: { kind: 'vanilla', instrument_id: 'SHFE.al2609', option_type: 'call', strike: 1, expiry: later(30) },
    });
    expect(none.status).toBe(400);
    expect(none.body.error.field).toBe('structure.instrument_id');
    expect(none.body.error.message).toMatch(/暂无该合约的行情/);
  });
});
