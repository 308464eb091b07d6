import { describe, expect, it } from 'vitest';
import { beijingDay, formatBasis, formatLotsWithUnits, formatMultiplier, isOnTickGrid, tickDecimals } from './fixing';

describe('fixing formats', () => {
  it('shows the basis with its sign', () => {
    expect(formatBasis(150)).toBe('+150.00');
    expect(formatBasis(-20)).toBe('-20.00');
    expect(formatBasis(0)).toBe('0.00');
    expect(formatBasis(1234.5)).toBe('+1,234.50');
    expect(formatBasis(null)).toBe('-');
  });

  it('takes the day in Beijing time', () => {
    // 2026-01-04 17:00 UTC is 2026-01-05 01:00 in Beijing; 15:00 UTC is still the 4th.
    expect(beijingDay('2026-01-04T17:00:00Z')).toBe('2026-01-05');
    expect(beijingDay('2026-01-04T15:00:00Z')).toBe('2026-01-04');
  });

  it('checks the tick grid like the server', () => {
    expect(isOnTickGrid(-20, 1)).toBe(true);
    expect(isOnTickGrid(1.24, 0.02)).toBe(true);
    expect(isOnTickGrid(1.23, 0.02)).toBe(false);
    expect(isOnTickGrid(155, 10)).toBe(false);
    expect(tickDecimals(0.02)).toBe(2);
    expect(tickDecimals(10)).toBe(0);
  });
});

describe('lots and units (issue 29)', () => {
  it('shows lots with the quantity they stand for, and the multiplier per lot', () => {
    expect(formatLotsWithUnits(2, 5, '吨')).toBe('2 手（10 吨）');
    expect(formatLotsWithUnits(1200, 10, '吨')).toBe('1,200 手（12,000 吨）');
    expect(formatLotsWithUnits(3, 300, null)).toBe('3 手');
    expect(formatLotsWithUnits(3, null, '吨')).toBe('3 手');
    expect(formatMultiplier(1000, '克')).toBe('1,000 克/手');
    expect(formatMultiplier(300, null)).toBe('300');
    expect(formatMultiplier(null, '吨')).toBe('-');
  });
});
