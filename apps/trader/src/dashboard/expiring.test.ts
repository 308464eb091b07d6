import type { ContractRow } from '@pfp/contract';
import { describe, expect, it } from 'vitest';
import { expiringWithin } from './expiring';

const row = (id: number, fixing_deadline: string | null, status = 'active', remaining = 5, frozen = 0) =>
  ({
    id,
    name: `c${id}`,
    instrument_id: 'SHFE.rb2605',
    fixing_deadline,
    status,
    remaining_quantity: remaining,
    frozen_quantity: frozen,
  }) as ContractRow;

describe('contracts due within 3 days (issue 30)', () => {
  it('keeps open contracts due today to 3 days out, nearest first, with their unfixed lots', () => {
    const now = new Date('2026-01-05T02:00:00Z'); // Monday 10:00 Beijing
    const due = expiringWithin(
      [
        row(1, '2026-01-09'),
        row(2, '2026-01-08', 'paused', 3, 2),
        row(3, '2026-01-05'),
        row(4, '2026-01-04'),
        row(5, '2026-01-06', 'completed'),
        row(6, null),
      ],
      now,
    );
    expect(due.map((d) => [d.contract.id, d.days, d.unfixed])).toEqual([
      [3, 0, 5],
      [2, 3, 5],
    ]);
  });

  it('counts trading days: on a Friday, the next Wednesday is 3 days out', () => {
    const friday = new Date('2026-01-09T02:00:00Z');
    const due = expiringWithin([row(1, '2026-01-14'), row(2, '2026-01-15')], friday);
    expect(due.map((d) => [d.contract.id, d.days])).toEqual([[1, 3]]);
  });
});
