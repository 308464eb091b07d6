import { describe, expect, it } from 'vitest';
import {
  addTradingDays,
  CALENDAR_TO,
  closedReason,
  HOLIDAYS,
  hasNightSessionAfter,
  isKnownDay,
  isTradingDay,
  missingCalendarYear,
  nthTradingDayOfMonth,
  tradingDaysBetween,
  tradingDaysUntil,
  tradingDaysIn,
  weekdayOfDay,
  addCalendarDays,
} from './index';

describe('the exchange calendar', () => {
  it('lists every weekday of each holiday, and only those', () => {
    for (const h of HOLIDAYS) {
      const weekdays: string[] = [];
      for (let d = h.from; d <= h.to; d = addCalendarDays(d, 1))
        if (weekdayOfDay(d) !== 0 && weekdayOfDay(d) !== 6) weekdays.push(d);
      expect(h.closed, `${h.name} ${h.from}`).toEqual(weekdays);
    }
  });

  it('has the 2026 notice: 元旦, 春节, 劳动节 and 国庆节 are shut; make-up Saturdays and Sundays too', () => {
    for (const day of ['2026-01-01', '2026-01-02', '2026-02-16', '2026-02-23', '2026-04-06', '2026-05-05'])
      expect(isTradingDay('SHFE', day), day).toBe(false);
    for (const day of ['2026-06-19', '2026-09-25', '2026-10-01', '2026-10-07'])
      expect(isTradingDay('DCE', day)).toBe(false);
    // 调休上班 weekends: offices work, exchanges do not.
    for (const day of ['2026-01-04', '2026-02-14', '2026-02-28', '2026-05-09', '2026-09-20', '2026-10-10'])
      expect(isTradingDay('CZCE', day), day).toBe(false);
    expect(isTradingDay('GFEX', '2026-01-05')).toBe(true);
    expect(isTradingDay('INE', '2026-02-24')).toBe(true);
    expect(tradingDaysIn('SHFE', '2026-02-13', '2026-02-27')).toEqual([
      '2026-02-13',
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
    ]);
  });

  it('words why a day is shut', () => {
    expect(closedReason('SHFE', '2026-10-05')).toBe('国庆节休市');
    expect(closedReason('SHFE', '2026-10-03')).toBe('国庆节休市');
    expect(closedReason('SHFE', '2026-11-29')).toBe('周日');
    expect(closedReason('SHFE', '2026-11-28')).toBe('周六');
    expect(closedReason('SHFE', '2026-11-27')).toBeUndefined();
  });

  it('counts trading days over weekends and holidays (T-3)', () => {
    // Friday 2026-11-27 → Monday, Tuesday, Wednesday.
    expect(addTradingDays('SHFE', '2026-11-27', 3)).toBe('2026-12-02');
    expect(tradingDaysBetween('SHFE', '2026-11-27', '2026-12-02')).toBe(3);
    expect(tradingDaysBetween('SHFE', '2026-12-02', '2026-11-27')).toBe(-3);
    expect(tradingDaysBetween('SHFE', '2026-12-02', '2026-12-02')).toBe(0);
    // Over 国庆: 2026-09-30 (Wed) → the next trading day is 2026-10-08.
    expect(addTradingDays('SHFE', '2026-09-30', 1)).toBe('2026-10-08');
    expect(addTradingDays('SHFE', '2026-10-08', -1)).toBe('2026-09-30');
  });

  it("counts the days left to a deadline in trading days, by the instrument's exchange", () => {
    // Friday → the next Monday: one trading day (the weekend counts nothing); on the day: 0.
    expect(tradingDaysUntil('SHFE.rb2601', '2026-11-30', '2026-11-27')).toBe(1);
    expect(tradingDaysUntil('DCE.m2601', '2026-11-30', '2026-11-28')).toBe(1);
    expect(tradingDaysUntil('SHFE.rb2601', '2026-11-30', '2026-11-30')).toBe(0);
    // Over 国庆: 2026-09-30 → 2026-10-08 is one trading day later, not eight calendar days.
    expect(tradingDaysUntil('CZCE.SR601', '2026-10-08', '2026-09-30')).toBe(1);
    expect(tradingDaysUntil('SHFE.rb2601', '2026-11-27', '2026-11-30')).toBe(-1);
  });

  it('holds no night session the evening before a holiday, but does on a plain Friday', () => {
    expect(hasNightSessionAfter('SHFE', '2026-11-27')).toBe(true);
    expect(hasNightSessionAfter('SHFE', '2026-09-30')).toBe(false);
    expect(hasNightSessionAfter('SHFE', '2026-12-31')).toBe(false);
    // 清明 2026: Saturday to Monday; Friday 2026-04-03 has no night session.
    expect(hasNightSessionAfter('SHFE', '2026-04-03')).toBe(false);
    expect(hasNightSessionAfter('SHFE', '2026-04-07')).toBe(true);
    expect(hasNightSessionAfter('SHFE', '2026-11-28')).toBe(false);
  });

  it('finds the n-th trading day of a month past the holidays', () => {
    // October 2026: the 1st trading day is the 8th.
    expect(nthTradingDayOfMonth('DCE', 2026, 10, 1)).toBe('2026-10-08');
    expect(nthTradingDayOfMonth('DCE', 2026, 12, -1)).toBe('2026-12-31');
  });

  it('knows where its data ends and warns from 1 December while next year is missing', () => {
    expect(CALENDAR_TO).toBe('2026-12-31');
    expect(isKnownDay('2026-12-31')).toBe(true);
    expect(isKnownDay('2027-01-04')).toBe(false);
    // Past the data, weekdays but the fixed-date holidays (the year-end rule).
    expect(isTradingDay('SHFE', '2027-01-01')).toBe(false);
    expect(closedReason('SHFE', '2027-01-01')).toBe('元旦休市');
    expect(isTradingDay('SHFE', '2027-01-04')).toBe(true);
    expect(isTradingDay('SHFE', '2027-10-01')).toBe(false);
    expect(missingCalendarYear('2026-11-30')).toBeUndefined();
    expect(missingCalendarYear('2026-12-01')).toBe(2027);
    expect(missingCalendarYear('2027-03-01')).toBe(2027);
  });
});
