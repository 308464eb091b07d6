import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// Only the test uses @pfp/i18n: the catalogue keeps its own names, which must stay in step with it.
import { PRODUCT_NAMES } from '@pfp/i18n';
import { shanghaiDate } from '../platform/time';
import {
  Catalogue,
  catalogue,
  findInstrument,
  futuresWithOptions,
  isOnStrikeGrid,
  isOnTick,
  listExchanges,
  listFutures,
  listProducts,
  optionChain,
  priceLimits,
  quantityUnit,
  roundToTick,
  strikeStep,
  type ExchangeId,
  type ProductSpec,
} from './catalogue';

const AS_OF = shanghaiDate('2025-11-20 10:00');
const symbols = (exchange: string, product: string, asOf = AS_OF) =>
  listFutures(exchange, product, asOf).map((f) => f.symbol);

describe('products', () => {
  it('has at least 30 products and every exchange', () => {
    expect(listExchanges()).toEqual(['SHFE', 'DCE', 'CZCE', 'CFFEX', 'INE', 'GFEX']);
    const all = listExchanges().flatMap((ex) => listProducts(ex));
    expect(all.length).toBeGreaterThanOrEqual(30);
    for (const ex of listExchanges()) expect(listProducts(ex).length, ex).toBeGreaterThan(0);
  });

  it('spells product ids in TqSdk case', () => {
    for (const p of catalogue.allProducts()) {
      const upper = p.exchange === 'CZCE' || p.exchange === 'CFFEX';
      expect(p.id, `${p.exchange}.${p.id}`).toMatch(upper ? /^[A-Z]+$/ : /^[a-z]+$/);
      if (p.option) expect(p.option.id, `${p.exchange}.${p.id} options`).toMatch(upper ? /^[A-Z]+$/ : /^[a-z]+$/);
    }
  });

  it('uses the Chinese names of @pfp/i18n', () => {
    for (const p of catalogue.allProducts()) {
      expect(p.name, `${p.exchange}.${p.id}`).toBe(PRODUCT_NAMES[p.exchange][p.id]);
    }
  });

  it("ends every commodity product's trading day at 15:00: the fixing deadline's time (fixingTerms FIXING_CLOSE_HOUR)", () => {
    for (const p of catalogue.allProducts().filter((p) => p.exchange !== 'CFFEX'))
      expect(p.daySessions.at(-1)!.end, `${p.exchange}.${p.id}`).toBe('15:00');
  });

  it('has sane specs: tick divides the reference price grid, limits, vols, sessions', () => {
    for (const p of catalogue.allProducts()) {
      const label = `${p.exchange}.${p.id}`;
      expect(p.tick, label).toBeGreaterThan(0);
      expect(p.multiplier, label).toBeGreaterThan(0);
      expect(p.refPrice / p.tick, label).toBeGreaterThan(100);
      expect(p.limitPct, label).toBeGreaterThan(0);
      expect(p.limitPct, label).toBeLessThan(0.25);
      expect(p.vol, label).toBeGreaterThan(0);
      expect(p.vol, label).toBeLessThan(1);
      expect(p.daySessions.length, label).toBeGreaterThan(0);
      if (p.exchange === 'CFFEX' || p.exchange === 'GFEX') expect(p.nightSession, label).toBeNull();
    }
    const get = (ex: string, id: string) => catalogue.getProduct(ex, id) as ProductSpec;
    expect(get('SHFE', 'cu').nightSession).toEqual({ start: '21:00', end: '01:00' });
    expect(get('SHFE', 'au').nightSession).toEqual({ start: '21:00', end: '02:30' });
    expect(get('DCE', 'm').nightSession).toEqual({ start: '21:00', end: '23:00' });
    expect(get('CFFEX', 'IF').daySessions).toEqual([
      { start: '09:30', end: '11:30' },
      { start: '13:00', end: '15:00' },
    ]);
    expect(get('SHFE', 'cu')).toMatchObject({ tick: 10, multiplier: 5 });
    expect(get('CFFEX', 'IF')).toMatchObject({ tick: 0.2, multiplier: 300, limitPct: 0.1 });
    expect(get('DCE', 'i')).toMatchObject({ tick: 0.5, multiplier: 100 });
  });

  it('lists options on the products that have them, with the exchange styles', () => {
    const styles = Object.fromEntries(
      catalogue
        .allProducts()
        .filter((p) => p.option)
        .map((p) => [`${p.exchange}.${p.option?.id}`, p.option?.style]),
    );
    for (const key of [
      'SHFE.cu',
      'SHFE.al',
      'SHFE.zn',
      'SHFE.au',
      'SHFE.ag',
      'SHFE.ru',
      'INE.sc',
      'DCE.m',
      'DCE.c',
      'DCE.i',
      'DCE.p',
      'DCE.y',
      'DCE.pp',
      'DCE.l',
      'DCE.v',
      'CZCE.SR',
      'CZCE.CF',
      'CZCE.TA',
      'CZCE.MA',
      'CZCE.RM',
      'CZCE.OI',
      'GFEX.si',
      'GFEX.lc',
      'CFFEX.IO',
      'CFFEX.HO',
      'CFFEX.MO',
    ]) {
      expect(styles[key], key).toBeDefined();
    }
    for (const [key, style] of Object.entries(styles)) {
      const ex = key.split('.')[0] as ExchangeId;
      if (ex === 'CFFEX') expect(style, key).toBe('E');
      else if (key === 'SHFE.cu' || key === 'SHFE.au') expect(style, key).toBe('E');
      else expect(style, key).toBe('A');
    }
  });
});

describe('listed futures', () => {
  it('lists the next contract months per product rule on a fixed date', () => {
    // 2025-11-20: cu2511 expired on the 17th (the 15th was a Saturday); m2511 and SR511 on the 14th.
    expect(symbols('SHFE', 'cu')).toEqual([
      'SHFE.cu2512',
      'SHFE.cu2601',
      'SHFE.cu2602',
      'SHFE.cu2603',
      'SHFE.cu2604',
      'SHFE.cu2605',
      'SHFE.cu2606',
      'SHFE.cu2607',
      'SHFE.cu2608',
      'SHFE.cu2609',
      'SHFE.cu2610',
      'SHFE.cu2611',
    ]);
    expect(symbols('DCE', 'm')).toEqual([
      'DCE.m2512',
      'DCE.m2601',
      'DCE.m2603',
      'DCE.m2605',
      'DCE.m2607',
      'DCE.m2608',
      'DCE.m2609',
      'DCE.m2611',
    ]);
    expect(symbols('CZCE', 'SR')).toEqual([
      'CZCE.SR601',
      'CZCE.SR603',
      'CZCE.SR605',
      'CZCE.SR607',
      'CZCE.SR609',
      'CZCE.SR611',
    ]);
    // CFFEX index futures: current month (IF2511 expires Friday 21st), next, two quarterly.
    expect(symbols('CFFEX', 'IF')).toEqual(['CFFEX.IF2511', 'CFFEX.IF2512', 'CFFEX.IF2603', 'CFFEX.IF2606']);
    expect(symbols('CFFEX', 'IF', shanghaiDate('2025-11-24 10:00'))).toEqual([
      'CFFEX.IF2512',
      'CFFEX.IF2601',
      'CFFEX.IF2603',
      'CFFEX.IF2606',
    ]);
    expect(symbols('CFFEX', 'T')).toEqual(['CFFEX.T2512', 'CFFEX.T2603', 'CFFEX.T2606']);
    // Gold: three nearest months plus the even months within a year.
    expect(symbols('SHFE', 'au')).toEqual([
      'SHFE.au2512',
      'SHFE.au2601',
      'SHFE.au2602',
      'SHFE.au2604',
      'SHFE.au2606',
      'SHFE.au2608',
      'SHFE.au2610',
    ]);
    expect(symbols('INE', 'sc').slice(0, 3)).toEqual(['INE.sc2512', 'INE.sc2601', 'INE.sc2602']);
    expect(symbols('GFEX', 'si')[0]).toBe('GFEX.si2512');
    expect(listFutures('SHFE', 'nope', AS_OF)).toEqual([]);
  });

  it('names futures and dates their expiry', () => {
    const cu = listFutures('SHFE', 'cu', AS_OF).find((f) => f.symbol === 'SHFE.cu2601');
    expect(cu).toMatchObject({ name: '铜2601', instrumentId: 'cu2601', expiry: '2026-01-15', year: 2026, month: 1 });
    const sr = listFutures('CZCE', 'SR', AS_OF)[0];
    // The 10th trading day of January 2026: 元旦 shuts 1 and 2 January.
    expect(sr).toMatchObject({ symbol: 'CZCE.SR601', name: '白糖601', expiry: '2026-01-16' });
    const ifs = listFutures('CFFEX', 'IF', AS_OF);
    // The third Friday of June 2026 is 端午节: the expiry moves to the next trading day.
    expect(ifs.map((f) => f.expiry)).toEqual(['2025-11-21', '2025-12-19', '2026-03-20', '2026-06-22']);
    expect(listFutures('INE', 'sc', AS_OF)[1]).toMatchObject({ symbol: 'INE.sc2601', expiry: '2025-12-31' });
    expect(listFutures('CFFEX', 'T', AS_OF)[0]).toMatchObject({ expiry: '2025-12-12' });
  });

  it('keeps a contract listed on its last trading day', () => {
    expect(symbols('CFFEX', 'IF', shanghaiDate('2025-11-21 14:00'))[0]).toBe('CFFEX.IF2511');
    expect(symbols('CFFEX', 'IF', shanghaiDate('2025-11-22 14:00'))[0]).toBe('CFFEX.IF2512');
  });
});

describe('option chains', () => {
  const asOf = shanghaiDate('2025-12-22 10:00');

  it('spells option symbols in each exchange format', () => {
    const has = (future: string, option: string) =>
      expect(
        optionChain(future, asOf).map((o) => o.symbol),
        future,
      ).toContain(option);
    has('SHFE.cu2602', 'SHFE.cu2602C80000');
    has('DCE.m2605', 'DCE.m2605-C-3000');
    has('CZCE.SR605', 'CZCE.SR605C5500');
    has('CFFEX.IF2601', 'CFFEX.IO2601-C-4000');
    has('INE.sc2602', 'INE.sc2602P500');
    has('GFEX.si2602', 'GFEX.si2602-C-10000');
    expect(findInstrument('SHFE.cu2601C80000', AS_OF)).toMatchObject({
      kind: 'option',
      underlying: 'SHFE.cu2601',
      optionType: 'CALL',
      strike: 80000,
      style: 'E',
      expiry: '2025-12-25',
      name: '铜期权2601购80000',
    });
    expect(findInstrument('CZCE.SR601P5500', AS_OF)).toMatchObject({ underlying: 'CZCE.SR601', optionType: 'PUT' });
    expect(findInstrument('CFFEX.IO2601-C-4000', AS_OF)).toMatchObject({ underlying: 'CFFEX.IF2601', style: 'E' });
    expect(findInstrument('DCE.m2601-C-3000', AS_OF)).toMatchObject({ underlying: 'DCE.m2601', expiry: '2025-12-16' });
    expect(findInstrument('GFEX.si2601-C-10000', AS_OF)).toMatchObject({ style: 'A', expiry: '2025-12-05' });
    expect(findInstrument('INE.sc2601C500', AS_OF)).toMatchObject({ style: 'A', expiry: '2025-12-15' });
  });

  it('has ascending strikes on the exchange grid around the reference, a call and a put each', () => {
    const futures = futuresWithOptions(undefined, undefined, AS_OF);
    expect(futures.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const f of futures) {
      const chain = optionChain(f.symbol, AS_OF);
      const product = catalogue.productOf(f);
      const bands = catalogue.strikeBands(product, f, { y: 2025, m: 11, d: 20 });
      const strikes = chain.filter((o) => o.optionType === 'CALL').map((o) => o.strike);
      const fail = (what: string) => problems.push(`${f.symbol}: ${what}`);
      if (chain.length !== strikes.length * 2) fail('not a call and a put per strike');
      if (strikes.length < 20 || strikes.length > 60) fail(`${strikes.length} strikes`);
      if (strikes.some((k, i) => i > 0 && k <= (strikes[i - 1] as number))) fail('strikes not ascending');
      for (const k of strikes) if (!isOnStrikeGrid(k, bands)) fail(`${k} off the grid`);
      if (!((strikes[0] as number) < f.refPrice * 0.85)) fail('lowest strike too high');
      if (!((strikes[strikes.length - 1] as number) > f.refPrice * 1.15)) fail('highest strike too low');
      for (const o of chain) {
        if (o.underlying !== f.symbol) fail(`${o.symbol} underlying`);
        if (o.expiry > f.expiry) fail(`${o.symbol} expires after its future`);
        if (o.style !== product.option?.style) fail(`${o.symbol} style`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses the published strike intervals', () => {
    const cu = catalogue.getProduct('SHFE', 'cu')?.option?.strikeBands ?? [];
    expect([30000, 50000, 90000].map((k) => strikeStep(k, cu))).toEqual([500, 1000, 2000]);
    const m = catalogue.getProduct('DCE', 'm')?.option?.strikeBands ?? [];
    expect([1500, 3000, 6000].map((k) => strikeStep(k, m))).toEqual([25, 50, 100]);
    const sr = optionChain('CZCE.SR601', AS_OF).map((o) => o.strike);
    expect(new Set(sr.map((k, i) => (i > 1 ? k - (sr[i - 2] as number) : 100)))).toEqual(new Set([100]));
    // CFFEX: quarterly months have twice the interval of the near months.
    const near = optionChain('CFFEX.IF2512', AS_OF).map((o) => o.strike);
    const far = optionChain('CFFEX.IF2606', AS_OF).map((o) => o.strike);
    expect(near).toContain(4550);
    expect(far).not.toContain(4550);
    expect(far).toContain(4600);
  });

  it('dates option expiry per exchange rule', () => {
    const first = (future: string) => optionChain(future, AS_OF)[0]?.expiry;
    expect(first('SHFE.cu2601')).toBe('2025-12-25'); // fifth-to-last trading day of December
    expect(first('DCE.m2601')).toBe('2025-12-16'); // 12th trading day of December
    expect(first('CZCE.SR601')).toBe('2025-12-03'); // 3rd trading day of December
    expect(first('GFEX.si2601')).toBe('2025-12-05'); // 5th trading day of December
    expect(first('CFFEX.IF2512')).toBe('2025-12-19'); // third Friday, with the future
    expect(first('INE.sc2601')).toBe('2025-12-15'); // 13th-to-last trading day of December
  });

  it('has no chain once the options expired, for futures without options, or unknown symbols', () => {
    // cu2512 options expired on 2025-11-24; the future trades until 2025-12-15.
    const asOfLate = shanghaiDate('2025-11-26 10:00');
    expect(symbols('SHFE', 'cu', asOfLate)).toContain('SHFE.cu2512');
    expect(optionChain('SHFE.cu2512', asOfLate)).toEqual([]);
    expect(futuresWithOptions('SHFE', 'cu', asOfLate).map((f) => f.symbol)).not.toContain('SHFE.cu2512');
    expect(optionChain('SHFE.rb2601', AS_OF).length).toBeGreaterThan(0);
    expect(optionChain('SHFE.hc2601', AS_OF)).toEqual([]);
    expect(optionChain('CFFEX.IC2512', AS_OF)).toEqual([]);
    expect(optionChain('SHFE.cu9901', AS_OF)).toEqual([]);
    expect(optionChain('nonsense', AS_OF)).toEqual([]);
    expect(futuresWithOptions('SHFE', 'hc', AS_OF)).toEqual([]);
  });

  it('offers a chain until its last trading day closes at 15:00, not for the rest of that day', () => {
    // cu2512 options' last trading day: 2025-11-24 (the volatility page offered it first that evening, chart empty).
    const live = (at: string) => futuresWithOptions('SHFE', 'cu', shanghaiDate(at)).map((f) => f.symbol);
    expect(live('2025-11-24 14:59')[0]).toBe('SHFE.cu2512');
    expect(live('2025-11-24 15:00')[0]).toBe('SHFE.cu2601');
    expect(optionChain('SHFE.cu2512', shanghaiDate('2025-11-24 20:00'))).toEqual([]);
  });

  it('centres the strikes on a given price', () => {
    const strikes = optionChain('DCE.m2605', AS_OF, 4000).map((o) => o.strike);
    expect(Math.min(...strikes)).toBeGreaterThan(2700);
    expect(Math.max(...strikes)).toBeLessThan(5300);
  });
});

describe('findInstrument', () => {
  it('round-trips every listed future and option', () => {
    const mismatches: string[] = [];
    for (const f of catalogue.listAllFutures(AS_OF)) {
      if (JSON.stringify(findInstrument(f.symbol, AS_OF)) !== JSON.stringify(f)) mismatches.push(f.symbol);
    }
    let options = 0;
    for (const f of futuresWithOptions(undefined, undefined, AS_OF)) {
      for (const o of optionChain(f.symbol, AS_OF)) {
        options++;
        if (JSON.stringify(findInstrument(o.symbol, AS_OF)) !== JSON.stringify(o)) mismatches.push(o.symbol);
      }
    }
    expect(mismatches).toEqual([]);
    expect(options).toBeGreaterThan(10_000);
  });

  it('rejects wrong case, unknown products, unlisted months and off-grid strikes', () => {
    for (const bad of [
      'SHFE.CU2601',
      'CZCE.sr601',
      'CZCE.SR2601',
      'SHFE.cu601',
      'DCE.m2602',
      'DCE.m2613',
      'XXX.cu2601',
      'cu2601',
      'SHFE.cu2601C80500',
      'SHFE.cu2601-C-80000',
      'DCE.m2601C3000',
      'CZCE.SR601-C-5500',
      'CFFEX.IO2601C4000',
      'CFFEX.IF2601-C-4000',
      'SHFE.hc2601C3000',
      'DCE.m2601-C-3010',
    ]) {
      expect(findInstrument(bad, AS_OF), bad).toBeUndefined();
    }
  });

  it('reads CZCE one-digit years relative to the date', () => {
    expect(findInstrument('CZCE.SR601', AS_OF)).toMatchObject({ year: 2026 });
    expect(findInstrument('CZCE.SR501', AS_OF)).toMatchObject({ year: 2025 });
    expect(findInstrument('CZCE.SR001', shanghaiDate('2029-06-01'))).toMatchObject({ year: 2030 });
  });
});

describe('ticks and limits', () => {
  it('rounds to the tick without binary noise', () => {
    expect(roundToTick(4600.1, 0.2)).toBe(4600.2);
    expect(roundToTick(108.3049, 0.005)).toBe(108.305);
    expect(roundToTick(86004, 10)).toBe(86000);
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e6, noNaN: true }),
        fc.constantFrom(0.002, 0.005, 0.01, 0.02, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20),
        (price, tick) => {
          const r = roundToTick(price, tick);
          return isOnTick(r, tick) && Math.abs(r - price) <= tick / 2 + 1e-9;
        },
      ),
    );
  });

  it('computes limit prices inside the band on the tick grid', () => {
    const cu = catalogue.getProduct('SHFE', 'cu') as ProductSpec;
    expect(priceLimits(86000, cu)).toEqual({ upper: 92020, lower: 79980 });
    const iF = catalogue.getProduct('CFFEX', 'IF') as ProductSpec;
    expect(priceLimits(4601.4, iF)).toEqual({ upper: 5061.4, lower: 4141.4 });
    fc.assert(
      fc.property(fc.constantFrom(...catalogue.allProducts()), fc.double({ min: 0.5, max: 2, noNaN: true }), (p, f) => {
        const pre = roundToTick(p.refPrice * f, p.tick);
        const { upper, lower } = priceLimits(pre, p);
        return (
          isOnTick(upper, p.tick) &&
          isOnTick(lower, p.tick) &&
          upper <= pre * (1 + p.limitPct) + 1e-9 &&
          lower >= pre * (1 - p.limitPct) - 1e-9 &&
          lower < pre &&
          upper > pre
        );
      }),
    );
  });
});

describe('Catalogue', () => {
  it('works on a custom product list', () => {
    const cu = catalogue.getProduct('SHFE', 'cu') as ProductSpec;
    const small = new Catalogue([cu]);
    expect(small.listExchanges()).toEqual(['SHFE']);
    expect(small.listProducts('DCE')).toEqual([]);
    expect(small.listFutures('SHFE', 'cu', AS_OF)).toHaveLength(12);
  });
});

describe('quantity units (issue 29)', () => {
  it('every commodity counts lots × multiplier in a unit; index and bond futures in none', () => {
    expect(quantityUnit('元/吨')).toBe('吨');
    expect(quantityUnit('元/克')).toBe('克');
    expect(quantityUnit('元/千克')).toBe('千克');
    expect(quantityUnit('元/桶')).toBe('桶');
    expect(quantityUnit('点')).toBeNull();
    expect(quantityUnit('元(百元面值)')).toBeNull();
    const units = new Map(
      listExchanges().flatMap((ex) => listProducts(ex).map((p) => [`${ex}.${p.id}`, quantityUnit(p.unit)] as const)),
    );
    expect(units.get('SHFE.cu')).toBe('吨');
    expect(units.get('SHFE.au')).toBe('克');
    expect(units.get('INE.sc')).toBe('桶');
    // Index points (CFFEX stock indices, INE's container freight index) and bond face values: no unit.
    for (const [id, unit] of units) if (!id.startsWith('CFFEX.') && id !== 'INE.ec') expect(unit, id).toMatch(/\S/);
  });
});
