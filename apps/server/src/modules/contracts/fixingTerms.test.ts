import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shanghaiDate } from '../../platform/time';
import { PRODUCTS } from '../../market/products';
import {
  assertBasisOnTick,
  assertDeadlineOpen,
  firstOpenDeadline,
  fixingDeadlineSchema,
  isPastDeadline,
  notFixableReason,
  shanghaiToday,
} from './fixingTerms';

/** Independent reference: exact decimal arithmetic on the written numbers (BigInt, no floating point). */
function onGridDecimal(value: string, tick: string): boolean {
  const scale = (text: string, places: number) => {
    const negative = text.startsWith('-');
    const [int, frac = ''] = text.replace('-', '').split('.');
    const n = BigInt(int! + frac.padEnd(places, '0'));
    return negative ? -n : n;
  };
  const places = Math.max(value.split('.')[1]?.length ?? 0, tick.split('.')[1]?.length ?? 0);
  return scale(value, places) % scale(tick, places) === 0n;
}

const onGrid = (basis: number, tick: number) => {
  try {
    assertBasisOnTick(basis, tick);
    return true;
  } catch {
    return false;
  }
};

const TICKS = [...new Set(PRODUCTS.map((p) => p.tick))];

describe('basis on the tick grid', () => {
  it('accepts whole numbers of ticks, negative and zero included, and nothing else (against exact decimals)', () => {
    const cases: [string, string][] = [
      ['30', '1'],
      ['-20', '1'],
      ['0', '10'],
      ['-200', '10'],
      ['35', '10'],
      ['1.24', '0.02'],
      ['1.23', '0.02'],
      ['-0.06', '0.02'],
      ['-2.5', '0.5'],
      ['2.25', '0.5'],
      ['0.3', '0.2'],
      ['0.4', '0.2'],
      ['-0.01', '0.005'],
      ['12.5', '2.5'],
    ];
    for (const [basis, tick] of cases) {
      expect(onGrid(Number(basis), Number(tick)), `${basis} / ${tick}`).toBe(onGridDecimal(basis, tick));
    }
  });

  it('agrees with exact decimals for every product tick (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS),
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: 9 }),
        (tick, k, tenths) => {
          const decimals = (String(tick).split('.')[1]?.length ?? 0) + 1;
          // k ticks, plus a fraction of a tick (0 = on the grid), written as a decimal.
          const text = ((k + tenths / 10) * tick).toFixed(decimals);
          expect(onGrid(Number(text), tick)).toBe(onGridDecimal(text, String(tick)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the field and the tick in the refusal', () => {
    expect(() => assertBasisOnTick(35, 10)).toThrow(
      expect.objectContaining({ kind: 'invalid', field: 'basis', message: '基差必须是最小变动价位 10 的整数倍' }),
    );
    expect(() => assertBasisOnTick(1.23, 0.02)).toThrow(
      expect.objectContaining({ message: expect.stringContaining('0.02') }),
    );
  });
});

describe('fixing deadline', () => {
  it('takes only real calendar days', () => {
    for (const ok of ['2026-01-05', '2028-02-29']) expect(fixingDeadlineSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['2026-02-30', '2027-02-29', '2026-13-01', '20260105', '2026-1-5', '', '明天']) {
      expect(fixingDeadlineSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(fixingDeadlineSchema.safeParse(undefined).error?.issues[0]?.message).toBe('请选择点价截止日');
  });

  it("is Beijing's calendar day, whatever the server's time zone", () => {
    // 2026-01-04 16:30 UTC = 2026-01-05 00:30 in Beijing.
    expect(shanghaiToday(new Date('2026-01-04T16:30:00Z'))).toBe('2026-01-05');
    expect(shanghaiToday(new Date('2026-01-04T15:59:59Z'))).toBe('2026-01-04');
  });

  it("ends at the close (15:00 Beijing) of the deadline's day", () => {
    const d = '2026-01-05';
    expect(isPastDeadline(d, shanghaiDate('2026-01-04 21:00'))).toBe(false);
    expect(isPastDeadline(d, new Date(shanghaiDate('2026-01-05 15:00').getTime() - 1))).toBe(false);
    expect(isPastDeadline(d, shanghaiDate('2026-01-05 15:00'))).toBe(true);
    expect(isPastDeadline(d, shanghaiDate('2026-01-06 09:00'))).toBe(true);
    expect(isPastDeadline(null, shanghaiDate('2099-01-01 00:00'))).toBe(false);
    expect(firstOpenDeadline(shanghaiDate('2026-01-05 14:59'))).toBe('2026-01-05');
    expect(firstOpenDeadline(shanghaiDate('2026-01-05 15:00'))).toBe('2026-01-06');
    expect(firstOpenDeadline(shanghaiDate('2026-12-31 16:00'))).toBe('2027-01-01');
  });

  it('is today or later at creation: yesterday never, today only before the close', () => {
    const morning = shanghaiDate('2026-01-05 10:00');
    const evening = shanghaiDate('2026-01-05 18:00');
    expect(() => assertDeadlineOpen('2026-01-05', morning)).not.toThrow();
    expect(() => assertDeadlineOpen('2026-01-06', evening)).not.toThrow();
    expect(() => assertDeadlineOpen('2026-01-04', morning)).toThrow(
      expect.objectContaining({ kind: 'invalid', field: 'fixing_deadline', message: '点价截止日不能早于今天' }),
    );
    expect(() => assertDeadlineOpen('2026-01-05', evening)).toThrow(
      expect.objectContaining({ field: 'fixing_deadline', message: expect.stringContaining('今天已收盘') }),
    );
  });

  it('gives the reason a contract cannot be fixed', () => {
    const now = shanghaiDate('2026-01-05 10:00');
    const c = (status: string, fixing_deadline: string | null) => notFixableReason({ status, fixing_deadline }, now);
    expect(c('active', '2026-01-05')).toBeNull();
    expect(c('active', null)).toBeNull();
    expect(c('active', '2026-01-02')).toBe('合同已过点价截止日（2026-01-02）');
    expect(c('expired', '2026-01-02')).toBe('合同已过点价截止日（2026-01-02）');
    expect(c('expired', '2026-02-02')).toBe('合同已过期');
    expect(c('paused', '2026-02-02')).toBe('合同已暂停');
    expect(c('completed', '2026-01-02')).toBe('合同已完成');
  });
});
