import { describe, it, expect } from 'vitest';
import { formatDateTime, formatLots, formatNumber, formatPercent, formatPrice, instrumentShort } from './format';

describe('formatNumber', () => {
  it('adds thousands separators', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1234)).toBe('1,234');
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(-98765)).toBe('-98,765');
  });

  it('honours fractionDigits exactly', () => {
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(1234.567, 1)).toBe('1,234.6');
    expect(formatNumber(1234.5, 0)).toBe('1,235');
    expect(formatNumber(7, 3)).toBe('7.000');
  });

  it('never shows negative zero', () => {
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
  });

  it('returns - for missing or non-finite values', () => {
    expect(formatNumber(null)).toBe('-');
    expect(formatNumber(undefined)).toBe('-');
    expect(formatNumber(Number.NaN)).toBe('-');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('-');
  });
});

describe('formatPrice', () => {
  it('formats yuan with exactly two decimals', () => {
    expect(formatPrice(1234.5)).toBe('¥1,234.50');
    expect(formatPrice(0)).toBe('¥0.00');
    expect(formatPrice(78950)).toBe('¥78,950.00');
    expect(formatPrice(3.14159)).toBe('¥3.14');
  });

  it('puts the minus sign before the yuan sign', () => {
    expect(formatPrice(-1234.5)).toBe('-¥1,234.50');
    expect(formatPrice(-0.001)).toBe('¥0.00');
  });

  it('returns - for null, undefined and NaN', () => {
    expect(formatPrice(null)).toBe('-');
    expect(formatPrice(undefined)).toBe('-');
    expect(formatPrice(Number.NaN)).toBe('-');
  });
});

describe('formatLots', () => {
  it('appends 手', () => {
    expect(formatLots(1200)).toBe('1,200 手');
    expect(formatLots(1)).toBe('1 手');
    expect(formatLots(0)).toBe('0 手');
    expect(formatLots(-35)).toBe('-35 手');
  });

  it('returns - for invalid values', () => {
    expect(formatLots(null)).toBe('-');
    expect(formatLots(Number.NaN)).toBe('-');
  });
});

describe('formatPercent', () => {
  it('formats ratios as percentages', () => {
    expect(formatPercent(0.75)).toBe('75%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.756)).toBe('76%');
    expect(formatPercent(0.1234, 1)).toBe('12.3%');
    expect(formatPercent(0.5, 2)).toBe('50.00%');
    expect(formatPercent(-0.05)).toBe('-5%');
    expect(formatPercent(12.5)).toBe('1,250%');
  });

  it('returns - for invalid values', () => {
    expect(formatPercent(undefined)).toBe('-');
    expect(formatPercent(Number.NaN, 2)).toBe('-');
  });
});

describe('formatDateTime', () => {
  it('converts a UTC timestamp to Shanghai time', () => {
    expect(formatDateTime('2026-01-05T01:30:00Z')).toBe('2026-01-05 09:30');
    expect(formatDateTime('2026-01-05T01:30:07.250Z', true)).toBe('2026-01-05 09:30:07');
  });

  it('rolls over to the next Shanghai day', () => {
    expect(formatDateTime('2025-12-31T16:00:00Z')).toBe('2026-01-01 00:00');
    expect(formatDateTime('2025-12-31T15:59:59Z', true)).toBe('2025-12-31 23:59:59');
  });

  it('accepts Date objects and epoch milliseconds', () => {
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 5, 1, 30, 0)))).toBe('2026-01-05 09:30');
    expect(formatDateTime(Date.UTC(2026, 0, 5, 13, 5, 9), true)).toBe('2026-01-05 21:05:09');
    expect(formatDateTime(0)).toBe('1970-01-01 08:00');
  });

  it('respects explicit offsets', () => {
    expect(formatDateTime('2026-01-05T09:30:00+08:00')).toBe('2026-01-05 09:30');
    expect(formatDateTime('2026-01-04T20:30:00-05:00')).toBe('2026-01-05 09:30');
  });

  it('reads offset-less strings as Shanghai time regardless of host time zone', () => {
    expect(formatDateTime('2026-01-05 09:30')).toBe('2026-01-05 09:30');
    expect(formatDateTime('2026-01-05T21:00:05', true)).toBe('2026-01-05 21:00:05');
    expect(formatDateTime('2026-01-05')).toBe('2026-01-05 00:00');
  });

  it('uses 00 (not 24) for midnight', () => {
    expect(formatDateTime('2026-03-01T16:00:00Z', true)).toBe('2026-03-02 00:00:00');
  });

  it('returns - for invalid input', () => {
    expect(formatDateTime('')).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
    expect(formatDateTime('2026-13-45 25:99')).toBe('-');
    expect(formatDateTime(Number.NaN)).toBe('-');
    expect(formatDateTime(new Date('invalid'))).toBe('-');
  });
});

describe('instrumentShort', () => {
  it('strips the exchange prefix', () => {
    expect(instrumentShort('SHFE.cu2601')).toBe('cu2601');
    expect(instrumentShort('CZCE.SR601')).toBe('SR601');
    expect(instrumentShort('KQ.m@DCE.m')).toBe('m@DCE.m');
  });

  it('leaves ids without a dot unchanged', () => {
    expect(instrumentShort('cu2601')).toBe('cu2601');
    expect(instrumentShort('')).toBe('');
  });
});
