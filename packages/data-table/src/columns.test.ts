import { describe, expect, it } from 'vitest';
import {
  cellValue,
  COLUMN_WIDTHS,
  defaultColumnWidth,
  filterConfigsOf,
  formatCellText,
  isColumnFilterable,
  valueAtPath,
  type DataTableColumn,
} from './columns';
import { toPageResult, defaultRowId } from './useServerTable';

describe('column defaults', () => {
  it('widths', () => {
    expect(COLUMN_WIDTHS).toEqual({ default: 150, min: 20, date: 180, boolean: 100, badge: 120 });
    expect(defaultColumnWidth(undefined)).toBe(150);
    expect(defaultColumnWidth('text')).toBe(150);
    expect(defaultColumnWidth('number')).toBe(150);
    expect(defaultColumnWidth('date')).toBe(180);
    expect(defaultColumnWidth('boolean')).toBe(100);
    expect(defaultColumnWidth('badge')).toBe(120);
  });
});

describe('formatCellText', () => {
  it('dates as YYYY-MM-DD HH:mm (Beijing time), seconds optional', () => {
    expect(formatCellText('2024-03-05T09:07:30+08:00', 'date')).toBe('2024-03-05 09:07');
    expect(formatCellText('2024-03-05T01:07:30Z', 'date', true)).toBe('2024-03-05 09:07:30');
    expect(formatCellText('not a date', 'date')).toBe('-');
    expect(formatCellText({}, 'date')).toBe('-');
  });
  it('booleans as 是 / 否', () => {
    expect(formatCellText(true, 'boolean')).toBe('是');
    expect(formatCellText(false, 'boolean')).toBe('否');
  });
  it('numbers with separators, empties as -', () => {
    expect(formatCellText(1234567, 'number')).toBe('1,234,567');
    expect(formatCellText(null)).toBe('-');
    expect(formatCellText(undefined, 'badge')).toBe('-');
    expect(formatCellText('')).toBe('-');
    expect(formatCellText('abc')).toBe('abc');
    expect(formatCellText({ a: 1 })).toBe('{"a":1}');
  });
});

describe('column helpers', () => {
  interface Row {
    id: number;
    contract: { symbol: string };
  }
  const row: Row = { id: 1, contract: { symbol: 'cu2601' } };

  it('reads nested fields or uses the accessor', () => {
    expect(valueAtPath(row, 'contract.symbol')).toBe('cu2601');
    expect(valueAtPath(row, 'contract.missing.deep')).toBeUndefined();
    const col: DataTableColumn<Row> = { field: 'x', header: 'X', accessor: (r) => r.id * 2 };
    expect(cellValue(col, row)).toBe(2);
  });

  it('collects filter configs of filterable columns', () => {
    const columns: DataTableColumn<Row>[] = [
      { field: 'name', header: '名称', filter: { type: 'text' } },
      { field: 'plain', header: '普通' },
      { field: 'broken', header: '坏', filterable: true },
      { field: 'off', header: '关', filter: { type: 'boolean' }, filterable: false },
    ];
    expect(columns.map(isColumnFilterable)).toEqual([true, false, true, false]);
    expect(filterConfigsOf(columns)).toEqual({ name: { type: 'text' }, broken: undefined });
  });
});

describe('toPageResult / defaultRowId', () => {
  it('accepts the server answer and the bare page', () => {
    expect(toPageResult({ data: { items: [1, 2], total_count: 9 } })).toEqual({ items: [1, 2], total_count: 9 });
    expect(toPageResult({ items: [1], total_count: 1 })).toEqual({ items: [1], total_count: 1 });
    expect(toPageResult({ items: [1, 2, 3] })).toEqual({ items: [1, 2, 3], total_count: 3 });
  });
  it('rejects malformed answers with 数据加载失败', () => {
    expect(() => toPageResult(null)).toThrow('数据加载失败');
    expect(() => toPageResult({ data: { rows: [] } })).toThrow('数据加载失败');
  });
  it('row id from row.id, else from the index', () => {
    expect(defaultRowId({ id: 7 }, 0)).toBe('7');
    expect(defaultRowId({ id: 'a' }, 0)).toBe('a');
    expect(defaultRowId({ name: 'x' }, 41)).toBe('41');
  });
});
