import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  limitSort,
  MAX_SORT_COLUMNS,
  PAGE_SIZE_OPTIONS,
  paginationInfo,
  sliceFor,
  totalPagesFor,
} from './pagination';

describe('paginationInfo', () => {
  it('first page of 45 rows by 20', () => {
    expect(paginationInfo(1, 20, 45)).toEqual({
      currentPage: 1,
      pageSize: 20,
      totalPages: 3,
      totalCount: 45,
      hasNextPage: true,
      hasPreviousPage: false,
      from: 1,
      to: 20,
    });
  });

  it('middle and last pages', () => {
    expect(paginationInfo(2, 20, 45)).toMatchObject({ from: 21, to: 40, hasNextPage: true, hasPreviousPage: true });
    expect(paginationInfo(3, 20, 45)).toMatchObject({ from: 41, to: 45, hasNextPage: false, hasPreviousPage: true });
    expect(paginationInfo(2, 20, 40)).toMatchObject({ totalPages: 2, from: 21, to: 40, hasNextPage: false });
  });

  it('no rows → one page, range 0 - 0', () => {
    expect(paginationInfo(1, 20, 0)).toEqual({
      currentPage: 1,
      pageSize: 20,
      totalPages: 1,
      totalCount: 0,
      hasNextPage: false,
      hasPreviousPage: false,
      from: 0,
      to: 0,
    });
  });

  it('page beyond the data has an empty range', () => {
    expect(paginationInfo(5, 20, 45)).toMatchObject({ totalPages: 3, from: 0, to: 0, hasNextPage: false });
  });

  it('normalizes a bad total count to 0', () => {
    expect(paginationInfo(1, 10, -3).totalCount).toBe(0);
    expect(paginationInfo(1, 10, Number.NaN).totalCount).toBe(0);
    expect(paginationInfo(1, 10, 10.7)).toMatchObject({ totalCount: 10, totalPages: 1 });
  });

  it('validates page and page size (RangeError, Chinese message)', () => {
    expect(() => paginationInfo(0, 20, 10)).toThrow(RangeError);
    expect(() => paginationInfo(0, 20, 10)).toThrow('页码必须是大于等于 1 的整数，当前值: 0');
    expect(() => paginationInfo(1.5, 20, 10)).toThrow(RangeError);
    expect(() => paginationInfo(1, 0, 10)).toThrow('每页条数必须是大于等于 1 的整数，当前值: 0');
    expect(() => paginationInfo(1, Number.NaN, 10)).toThrow(RangeError);
  });
});

describe('sliceFor', () => {
  it('maps page to slice_start / slice_end', () => {
    expect(sliceFor(1, 20)).toEqual({ slice_start: 0, slice_end: 20 });
    expect(sliceFor(3, 20)).toEqual({ slice_start: 40, slice_end: 60 });
    expect(sliceFor(2, 50)).toEqual({ slice_start: 50, slice_end: 100 });
  });
  it('validates arguments', () => {
    expect(() => sliceFor(0, 20)).toThrow(RangeError);
    expect(() => sliceFor(1, -5)).toThrow(RangeError);
  });
});

describe('totalPagesFor', () => {
  it('is at least 1', () => {
    expect(totalPagesFor(20, 0)).toBe(1);
    expect(totalPagesFor(20, 41)).toBe(3);
  });
});

describe('limitSort', () => {
  const entries = ['a', 'b', 'c', 'd'].map((field) => ({ field, ascending: true }));

  it('keeps at most 3 columns by default', () => {
    expect(MAX_SORT_COLUMNS).toBe(3);
    expect(limitSort(entries).map((s) => s.field)).toEqual(['a', 'b', 'c']);
    expect(limitSort(entries, 3)).toHaveLength(3);
  });

  it('drops duplicate columns, keeping the first', () => {
    const sorting = [
      { field: 'a', ascending: true },
      { field: 'a', ascending: false },
      { field: 'b', ascending: false },
    ];
    expect(limitSort(sorting, 3)).toEqual([
      { field: 'a', ascending: true },
      { field: 'b', ascending: false },
    ]);
  });

  it('accepts TanStack sorting state', () => {
    const sorting = [
      { id: 'x', desc: true },
      { id: 'y', desc: false },
    ];
    expect(limitSort(sorting, 1)).toEqual([{ id: 'x', desc: true }]);
  });

  it('handles small and unbounded limits and does not mutate', () => {
    expect(limitSort(entries, 0)).toEqual([]);
    expect(limitSort(entries, Number.POSITIVE_INFINITY)).toHaveLength(4);
    expect(entries).toHaveLength(4);
  });
});

describe('constants', () => {
  it('page sizes', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 50, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(20);
  });
});
