import { describe, expect, it } from 'vitest';
import {
  buildFilterExpression,
  compileFilters,
  filterCondition,
  quote,
  validateFilterConfig,
  type ColumnFilterConfig,
  type ColumnFilterValue,
  type FilterValue,
} from './filterExpression';

const text: ColumnFilterConfig = { type: 'text' };
const bool: ColumnFilterConfig = { type: 'boolean' };
const num: ColumnFilterConfig = { type: 'number' };
const date: ColumnFilterConfig = { type: 'date' };
const options = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
];
const single: ColumnFilterConfig = { type: 'select', options };
const multi: ColumnFilterConfig = { type: 'select', options, multiple: true };

function condition(config: ColumnFilterConfig | undefined, value: FilterValue, field = 'f'): string | null {
  const result = filterCondition({ field, config, value });
  if (!result.ok) throw new Error(`unexpected error: ${result.error}`);
  return result.condition;
}

describe('quote', () => {
  it('wraps text in single quotes', () => expect(quote('abc')).toBe("'abc'"));
  it('escapes quote and backslash', () => {
    expect(quote("it's")).toBe("'it\\'s'");
    expect(quote('a\\b')).toBe("'a\\\\b'");
    // 反斜杠先转义，避免 \' 被二次处理
    expect(quote("\\'")).toBe("'\\\\\\''");
  });
  it('keeps Chinese text', () => expect(quote('螺纹钢')).toBe("'螺纹钢'"));
});

describe('filterCondition', () => {
  it('boolean: true / false, all and empty omitted', () => {
    expect(condition(bool, 'true', 'active')).toBe('active is true');
    expect(condition(bool, true, 'active')).toBe('active is true');
    expect(condition(bool, 'false', 'active')).toBe('active is false');
    expect(condition(bool, false, 'active')).toBe('active is false');
    expect(condition(bool, 'all')).toBeNull();
    expect(condition(bool, '')).toBeNull();
    expect(condition(bool, undefined)).toBeNull();
    expect(condition(bool, null)).toBeNull();
  });

  it('text: contains with quoting and trimming', () => {
    expect(condition(text, 'x', 'name')).toBe("name contains 'x'");
    expect(condition(text, '  cu  ', 'name')).toBe("name contains 'cu'");
    expect(condition(text, "O'Brien\\", 'name')).toBe("name contains 'O\\'Brien\\\\'");
    expect(condition(text, '')).toBeNull();
    expect(condition(text, '   ')).toBeNull();
  });

  it('select: single uses =, multiple uses in', () => {
    expect(condition(single, 'a', 'status')).toBe("status = 'a'");
    expect(condition(single, ['b'], 'status')).toBe("status = 'b'");
    expect(condition(single, '')).toBeNull();
    expect(condition(multi, ['a', 'b'], 'status')).toBe("status in ['a','b']");
    expect(condition(multi, 'a', 'status')).toBe("status in ['a']");
    expect(condition(multi, ["x'y"], 'status')).toBe("status in ['x\\'y']");
    expect(condition(multi, [])).toBeNull();
    expect(condition(multi, [''])).toBeNull();
  });

  it('number: = number', () => {
    expect(condition(num, 5, 'qty')).toBe('qty = 5');
    expect(condition(num, -1.5, 'qty')).toBe('qty = -1.5');
    expect(condition(num, 0, 'qty')).toBe('qty = 0');
    expect(condition(num, -0, 'qty')).toBe('qty = 0');
    expect(condition(num, ' 12 ', 'qty')).toBe('qty = 12');
    expect(condition(num, '')).toBeNull();
    expect(condition(num, null)).toBeNull();
  });

  it("date: = 'YYYY-MM-DD'", () => {
    expect(condition(date, '2024-02-29', 'created_at')).toBe("created_at = '2024-02-29'");
    expect(condition(date, new Date(2025, 0, 5, 23, 59), 'created_at')).toBe("created_at = '2025-01-05'");
    expect(condition(date, '')).toBeNull();
  });

  it('invalid values are errors', () => {
    const invalid = (config: ColumnFilterConfig, value: FilterValue) => filterCondition({ field: 'f', config, value });
    expect(invalid(num, 'abc')).toEqual({ ok: false, field: 'f', error: '筛选值无效' });
    expect(invalid(num, Number.NaN)).toMatchObject({ ok: false });
    expect(invalid(date, '2023-02-29')).toMatchObject({ ok: false });
    expect(invalid(date, '2024/01/01')).toMatchObject({ ok: false });
    expect(invalid(date, new Date(Number.NaN))).toMatchObject({ ok: false });
    expect(invalid(bool, 'yes')).toMatchObject({ ok: false });
    expect(invalid(single, ['a', 'b'])).toMatchObject({ ok: false });
    expect(invalid(text, ['a'])).toMatchObject({ ok: false });
  });

  it('missing or broken config → 筛选配置错误', () => {
    expect(filterCondition({ field: 'f', config: undefined, value: 'x' })).toEqual({
      ok: false,
      field: 'f',
      error: '筛选配置错误',
    });
    expect(filterCondition({ field: 'f', config: null, value: undefined })).toMatchObject({
      ok: false,
      error: '筛选配置错误',
    });
    const noOptions = { type: 'select' } as unknown as ColumnFilterConfig;
    expect(filterCondition({ field: 'f', config: noOptions, value: 'a' })).toMatchObject({ ok: false });
    const unknownType = { type: 'range' } as unknown as ColumnFilterConfig;
    expect(filterCondition({ field: 'f', config: unknownType, value: 'a' })).toMatchObject({ ok: false });
  });

  it('rejects field names that are not identifiers', () => {
    expect(filterCondition({ field: "x' or 1=1", config: text, value: 'a' })).toMatchObject({ ok: false });
    expect(condition(text, 'a', 'contract.symbol')).toBe("contract.symbol contains 'a'");
  });
});

describe('validateFilterConfig', () => {
  it('accepts every filter type', () => {
    for (const config of [text, bool, num, date, single, multi]) expect(validateFilterConfig(config)).toBeNull();
  });
  it('rejects missing config and bad options', () => {
    expect(validateFilterConfig(undefined)).toBe('筛选配置错误');
    expect(validateFilterConfig({ type: 'select', options: [{ value: 1 }] })).toBe('筛选配置错误');
  });
});

describe('buildFilterExpression', () => {
  it('joins conditions with and, omitting empty / all values', () => {
    const filters: ColumnFilterValue[] = [
      { field: 'active', config: bool, value: 'true' },
      { field: 'deleted', config: bool, value: 'all' },
      { field: 'name', config: text, value: 'cu' },
      { field: 'remark', config: text, value: '' },
      { field: 'status', config: multi, value: ['a', 'b'] },
      { field: 'kind', config: single, value: 'b' },
      { field: 'qty', config: num, value: 10 },
      { field: 'day', config: date, value: '2024-01-02' },
    ];
    expect(buildFilterExpression(filters)).toBe(
      "active is true and name contains 'cu' and status in ['a','b'] and kind = 'b' and qty = 10 and day = '2024-01-02'",
    );
  });

  it('is empty without conditions', () => {
    expect(buildFilterExpression([])).toBe('');
    expect(buildFilterExpression([{ field: 'a', config: bool, value: 'all' }])).toBe('');
  });

  it('leaves out erroneous filters and reports them', () => {
    const result = compileFilters([
      { field: 'name', config: text, value: 'x' },
      { field: 'broken', config: undefined, value: 'y' },
      { field: 'qty', config: num, value: 'abc' },
    ]);
    expect(result.expression).toBe("name contains 'x'");
    expect(result.errors).toEqual([
      { field: 'broken', error: '筛选配置错误' },
      { field: 'qty', error: '筛选值无效' },
    ]);
  });
});
