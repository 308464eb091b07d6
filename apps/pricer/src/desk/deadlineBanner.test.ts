import type { PricerContract } from '@pfp/contract';
import { describe, expect, it } from 'vitest';
import { deadlineFact } from './DeskPage';

const c = (fixing_deadline: string | null, remaining_quantity = 5, not_fixable_reason: string | null = null) =>
  ({ instrument_id: 'SHFE.rb2605', fixing_deadline, remaining_quantity, not_fixable_reason }) as PricerContract;
const NOW = '2026-01-05T02:00:00.000Z'; // Monday 10:00 Beijing

describe('the desk’s deadline banner (issue 30: from 3 days before the deadline)', () => {
  it('shows the days left from T-3 to the day itself while lots remain', () => {
    expect(deadlineFact(c('2026-01-08'), NOW).banner).toBe(3);
    expect(deadlineFact(c('2026-01-05'), NOW).banner).toBe(0);
    expect(deadlineFact(c('2026-01-09'), NOW).banner).toBeNull();
    expect(deadlineFact(c('2026-01-06', 0), NOW).banner).toBeNull();
    expect(deadlineFact(c('2026-01-06', 5, '合同已暂停'), NOW).banner).toBeNull();
    expect(deadlineFact(c(null), NOW).banner).toBeNull();
  });

  it('counts trading days, as reminders do: a weekend between adds nothing', () => {
    const FRIDAY = '2026-01-09T02:00:00.000Z';
    // Friday → Wednesday is five calendar days but three trading days (T-3).
    expect(deadlineFact(c('2026-01-14'), FRIDAY).banner).toBe(3);
    expect(deadlineFact(c('2026-01-15'), FRIDAY).banner).toBeNull();
  });
});
