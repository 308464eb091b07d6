import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shanghaiDate } from '../../platform/time';
import {
  assertDeadlineOpen,
  basisSchema,
  firstOpenDeadline,
  fixingDeadlineSchema,
  isPastDeadline,
  notFixableReason,
  shanghaiToday,
} from './fixingTerms';

/** Independent reference: the written number has at most 2 decimals (after dropping trailing zeros). */
function fenDecimal(text: string): boolean {
  const frac = text.split('.')[1] ?? '';
  return frac.replace(/0+$/, '').length <= 2;
}

const accepted = (basis: number) => basisSchema.safeParse(basis).success;

describe('basis: a commercial number in 元, up to 2 decimals, not tied to the futures tick', () => {
  it('accepts off-grid premiums and fen, sign allowed (copper moves in 10s: +185 and -15.5 are fine)', () => {
    for (const ok of ['185', '-15.5', '0', '-0.01', '1.23', '0.29', '999999.99', '-1000000', '12.10']) {
      expect(accepted(Number(ok)), ok).toBe(true);
    }
  });

  it('refuses more than 2 decimals, non-finite and absurd values with a Chinese message naming 基差', () => {
    for (const bad of [1.234, -15.005, 0.001, Number.NaN, Infinity, -Infinity, 1_000_000.01, 1e300, -1e-7]) {
      const r = basisSchema.safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error?.issues[0]?.message, String(bad)).toMatch(/基差/);
    }
    expect(basisSchema.safeParse(1.234).error?.issues[0]?.message).toBe('基差最多两位小数（精确到分）');
  });

  it('agrees with the written decimals (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 9 }), (fen, milli) => {
        const text = ((fen * 10 + (fen < 0 ? -milli : milli)) / 1000).toFixed(3);
        expect(accepted(Number(text)), text).toBe(fenDecimal(text));
      }),
      { numRuns: 2000 },
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
