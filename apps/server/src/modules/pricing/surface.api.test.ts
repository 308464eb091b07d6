import { black76Price, yearFraction } from '@pfp/quant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { futuresWithOptions, optionChain } from '../../market/catalogue';
import type { OptionSpec } from '../../market/types';
import type { Quote } from '../../platform/quote';
import { shanghaiToday } from '../contracts/fixingTerms';

/*
 * 含权报价 on the smile surface (issue 44 §1, docs/smile.md): two chains of one product quoted off a known smile, the
 * fitted smiles as the volatility page reads them, and price-structure's vol at the structure's strike and date.
 */

let h: Harness;
let t: Tenant;
const YEAR_MS = 365 * 86_400_000;
const today = shanghaiToday();
// Two listed copper futures whose options expire 10 days or more from now.
const [F1, F2] = futuresWithOptions('SHFE', 'cu')
  .filter((f) => optionChain(f.symbol)[0]!.expiryMs - Date.now() > 10 * 86_400_000)
  .slice(0, 2)
  .map((f) => f.symbol) as [string, string];
const FORWARD: Record<string, number> = { [F1]: 80_000, [F2]: 80_600 };
/** The market's smile: a skewed parabola in k, a little lower and flatter on the later chain. */
const smileOf = (future: string, k: number) =>
  future === F1 ? 0.2 - 0.1 * k + 0.5 * k * k : 0.19 - 0.08 * k + 0.3 * k * k;

const chains = new Map<string, OptionSpec[]>(
  [F1, F2].map((f) => [f, optionChain(f, undefined, FORWARD[f]).map((o) => ({ ...o, style: 'E' as const }))]),
);
const expiryOf = (f: string) => chains.get(f)![0]!.expiry;
const bySymbol = new Map([...chains.values()].flat().map((o) => [o.symbol, o]));

const quote = (symbol: string, last: number, bid: number | null = null, ask: number | null = null) =>
  ({ symbol, last_price: last, bid_price1: bid, ask_price1: ask }) as Quote;

function optionQuote(o: OptionSpec): Quote {
  const F = FORWARD[o.underlying]!;
  const T = (o.expiryMs - Date.now()) / YEAR_MS;
  const p = black76Price(F, o.strike, T, 0.015, o.optionType === 'CALL', smileOf(o.underlying, Math.log(o.strike / F)));
  return quote(o.symbol, p, p - o.tick, p + o.tick);
}

const price = (body: Record<string, unknown>) => h.call('/api/trader/rpc/price-structure', body, t.token);
const vanillaAt = (strike: number, expiry: string) =>
  price({ structure: { kind: 'vanilla', instrument_id: F1, option_type: 'call', strike, expiry } });
const dayAfter = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  h = await startHarness({
    quote: (s) => (FORWARD[s] ? quote(s, FORWARD[s]) : undefined),
    optionMarket: {
      optionChain: (f) => chains.get(f) ?? [],
      getQuote: (s) => {
        const o = bySymbol.get(s);
        return o && optionQuote(o);
      },
    },
  });
  t = await setupTenant(h, 'trader-smile', '微笑曲面', []);
});

afterAll(async () => {
  await h.close();
});

describe('GET /api/rpc/volatility_smile', () => {
  it('answers each chain of the product: the market points, the fitted line over them, the fit error', async () => {
    const res = await h.call(`/api/rpc/volatility_smile?symbol=${F1}`, undefined, undefined, 'GET');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.product).toBe('SHFE.cu');
    expect(d.chains.map((c: { future: string }) => c.future)).toEqual([F1, F2]);
    for (const c of d.chains) {
      expect(c.points.length).toBeGreaterThan(10);
      expect(c.fitted).toHaveLength(61);
      expect(c.flat).toBe(false);
      // The quotes are exact: what is left is the parabola's difference from SVI's shape.
      expect(c.rmse).toBeLessThan(0.002);
      for (const [K, vol] of c.points) expect(vol).toBeCloseTo(smileOf(c.future, Math.log(K / FORWARD[c.future]!)), 6);
    }
  });

  it('refuses what is not a future, naming the field', async () => {
    const res = await h.call('/api/rpc/volatility_smile?symbol=SHFE.xx', undefined, undefined, 'GET');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('symbol');
  });
});

describe('price-structure on the surface', () => {
  it('prices at a chain expiry with the fitted vol at the strike, and says so', async () => {
    const strike = 84_000;
    const res = await vanillaAt(strike, expiryOf(F1));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.vol_source).toBe('surface');
    expect(d.vol_point).toMatchObject({ strike, date: expiryOf(F1), rule: 'slice', chains: [F1] });
    expect(d.vol_point.log_moneyness).toBeCloseTo(Math.log(strike / 80_000), 12);
    // Off the at-the-money vol: the smile's own at this strike (within the fit's error).
    expect(Math.abs(d.vol - smileOf(F1, Math.log(strike / 80_000)))).toBeLessThan(0.003);
    expect(Math.abs(d.vol - 0.2)).toBeGreaterThan(0.001);
    expect(d.price).toBeCloseTo(black76Price(80_000, strike, yearFraction(today, expiryOf(F1)), 0.015, true, d.vol), 6);
    expect(d.note).toContain('期权微笑曲面');
    expect(d.note).not.toMatch(/取自[A-Z]/);
  });

  it('between the chains interpolates, before the first and after the last extrapolates, each named', async () => {
    const between = await vanillaAt(80_000, dayAfter(expiryOf(F1), 5));
    expect(between.body.data.vol_point).toMatchObject({ rule: 'interpolated', chains: [F1, F2] });
    const before = await vanillaAt(80_000, dayAfter(today, 3));
    expect(before.body.data.vol_point).toMatchObject({ rule: 'before_first', chains: [F1] });
    const after = await vanillaAt(80_000, dayAfter(expiryOf(F2), 60));
    expect(after.body.data.vol_point).toMatchObject({ rule: 'after_last', chains: [F2] });
    // Total variance never falls as the date moves out.
    const w = [before, between, after].map((r) => r.body.data.vol_point.total_variance as number);
    expect(w[0]).toBeLessThan(w[1]!);
    expect(w[1]).toBeLessThan(w[2]!);
  });

  it('reads the zero-cost strike of an accumulator at that strike', async () => {
    const res = await price({
      structure: {
        kind: 'accumulator',
        instrument_id: F1,
        side: 'buy',
        barrier: 84_000,
        leverage: 2,
        quantity_per_day: 5,
        start: dayAfter(today, 1),
        end: dayAfter(today, 40),
        solve: 'strike',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.vol_source).toBe('surface');
    // The vol was read at the strike of the first solve; the second moves it by a few 元 at most.
    expect(Math.abs(d.vol_point.strike - d.strike)).toBeLessThan(50);
  });
});
