import { describe, expect, it } from 'vitest';
import { fitColumns } from './fitColumns';

const columns = [
  { id: 'id', width: 60, priority: 1 },
  { id: 'customer', width: 100, priority: 2 },
  { id: 'message', width: 160, priority: 4 },
  { id: 'status', width: 90, priority: 1 },
  { id: 'time', width: 100, priority: 2 },
];
// 510 px of data columns plus an 80 px actions column.
const fixed = 80;

describe('fitColumns', () => {
  it('hides nothing when everything fits, or before the box is measured', () => {
    expect([...fitColumns(columns, fixed, 590)]).toEqual([]);
    expect([...fitColumns(columns, fixed, 0)]).toEqual([]);
  });

  it('hides the highest priority number first, then the later column of a tie', () => {
    expect([...fitColumns(columns, fixed, 589)]).toEqual(['message']);
    expect([...fitColumns(columns, fixed, 430)]).toEqual(['message']);
    expect([...fitColumns(columns, fixed, 429)]).toEqual(['message', 'time']);
    expect([...fitColumns(columns, fixed, 250)]).toEqual(['message', 'time', 'customer']);
  });

  it('never hides priority 1, even when the rest does not fit', () => {
    expect([...fitColumns(columns, fixed, 100)]).toEqual(['message', 'time', 'customer']);
  });
});
