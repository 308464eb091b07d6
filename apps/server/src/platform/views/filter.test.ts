import { describe, expect, it } from 'vitest';
import { ViewError } from './errors';
import { MAX_FILTER_CONDITIONS, MAX_FILTER_LENGTH, parseFilter, quoteFilterValue } from './filter';

function parseError(input: string): ViewError {
  try {
    parseFilter(input);
  } catch (e) {
    expect(e).toBeInstanceOf(ViewError);
    return e as ViewError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

describe('parseFilter', () => {
  it('reads nothing from an empty or blank filter', () => {
    expect(parseFilter('')).toEqual([]);
    expect(parseFilter('  \t\n ')).toEqual([]);
  });

  it('reads every condition form', () => {
    expect(
      parseFilter("active is true and x is false and name contains 'cu' and s in ['a','b'] and n in [1, 2.5]"),
    ).toEqual([
      { op: 'is', field: 'active', value: true, position: 1 },
      { op: 'is', field: 'x', value: false, position: 20 },
      { op: 'contains', field: 'name', value: 'cu', position: 35 },
      { op: 'in', field: 's', values: ['a', 'b'], position: 58 },
      { op: 'in', field: 'n', values: [1, 2.5], position: 77 },
    ]);
    expect(parseFilter("status = 'ALIVE' and id = 42 and p = -1.5e3 and q = 0.25E-2 and e in []")).toEqual([
      { op: '=', field: 'status', value: 'ALIVE', position: 1 },
      { op: '=', field: 'id', value: 42, position: 22 },
      { op: '=', field: 'p', value: -1500, position: 34 },
      { op: '=', field: 'q', value: 0.0025, position: 49 },
      { op: 'in', field: 'e', values: [], position: 65 },
    ]);
  });

  it('takes keywords in any case, fields as written, and whitespace anywhere between tokens', () => {
    expect(parseFilter("  Active IS TRUE\tAND\nName CONTAINS'x'and s In[ 'a' ,'b' ]and n=1  ")).toEqual([
      { op: 'is', field: 'Active', value: true, position: 3 },
      { op: 'contains', field: 'Name', value: 'x', position: 22 },
      { op: 'in', field: 's', values: ['a', 'b'], position: 42 },
      { op: '=', field: 'n', value: 1, position: 62 },
    ]);
    expect(parseFilter('a.b = 1')).toEqual([{ op: '=', field: 'a.b', value: 1, position: 1 }]);
    // A field may be called like a keyword: position decides.
    expect(parseFilter('and = 1 and in in [2]')).toEqual([
      { op: '=', field: 'and', value: 1, position: 1 },
      { op: 'in', field: 'in', values: [2], position: 13 },
    ]);
  });

  it("unescapes \\' and \\\\ inside quotes and keeps everything else verbatim", () => {
    expect(parseFilter(String.raw`m = 'it\'s a \\ back\\slash' and c contains '%_"[],= and '`)).toEqual([
      { op: '=', field: 'm', value: String.raw`it's a \ back\slash`, position: 1 },
      { op: 'contains', field: 'c', value: '%_"[],= and ', position: 34 },
    ]);
    expect(parseFilter("m = '价格 ≥ 3000 😀'")).toEqual([
      { op: '=', field: 'm', value: '价格 ≥ 3000 😀', position: 1 },
    ]);
    expect(parseFilter("m = ''")).toEqual([{ op: '=', field: 'm', value: '', position: 1 }]);
  });

  it('round-trips quoteFilterValue', () => {
    for (const v of ["'", '\\', "\\'", "''\\\\", 'a\'b\\c"d', '', ' and x = 1']) {
      expect(parseFilter(`f = ${quoteFilterValue(v)}`)).toEqual([{ op: '=', field: 'f', value: v, position: 1 }]);
    }
  });

  it('normalises -0 to 0', () => {
    expect(Object.is((parseFilter('n = -0')[0] as { value: number }).value, 0)).toBe(true);
  });

  it.each([
    ['a', 2, '应为 is、contains、in 或 ='],
    ['a =', 4, '应为带引号的字符串或数字'],
    ['= 1', 1, '应为字段名'],
    ["a = 'x' b = 1", 9, '应为 and'],
    ["a = 'x' and", 12, '应为字段名'],
    ["a = 'x' and and", 16, '应为 is、contains、in 或 ='],
    ['a is yes', 6, 'true 或 false'],
    ['a is 1', 6, 'true 或 false'],
    ['a contains x', 12, '带引号的字符串'],
    ['a contains 1', 12, '带引号的字符串'],
    ['a in 1', 6, '“[”'],
    ["a in ['x'", 10, '“,”或“]”'],
    ["a in ['x',]", 11, '应为带引号的字符串或数字'],
    ["a in ['x' 'y']", 11, '“,”或“]”'],
    ['a in [,]', 7, '应为带引号的字符串或数字'],
    ['a = 1 ; drop table orders', 7, '无法识别的字符“;”'],
    ['a = "x"', 5, '无法识别的字符“"”'],
    ['a = 1)', 6, '无法识别的字符“)”'],
    ['a = 12abc', 7, '数字格式错误'],
    ['a = 1.2.3', 8, '数字格式错误'],
    ['a = 1.', 6, '小数点后缺少数字'],
    ['a = 1e', 6, '指数部分不完整'],
    ['a = - 1', 5, '无法识别的字符“-”'],
    ['a. = 1', 2, '“.”后缺少名称'],
    ['名称 = 1', 1, '无法识别的字符“名”'],
    ["a = 'x\\n'", 7, '只能使用'],
    ["a = 'x' and b = 2 garbage", 19, '应为 and'],
    ["a = 'x' and b = 2 and", 22, '应为字段名'],
    ['a = \u0001', 5, 'U+0001'],
  ])('rejects %j at character %i', (input, position, detail) => {
    const e = parseError(input);
    expect(e.kind).toBe('invalid');
    expect(e.code).toBe('invalid_input');
    expect(e.position).toBe(position);
    expect(e.message).toContain(`筛选条件第 ${position} 个字符处`);
    expect(e.message).toContain(detail);
  });

  it('reports an unterminated string at its opening quote', () => {
    expect(parseError("a = 'abc").message).toBe('筛选条件第 5 个字符处的字符串缺少结束引号');
    expect(parseError("a = 'abc\\").message).toBe('筛选条件第 5 个字符处的字符串缺少结束引号');
    expect(parseError("a = 'abc\\'").message).toBe('筛选条件第 5 个字符处的字符串缺少结束引号');
  });

  it('refuses NUL and lone surrogates inside strings', () => {
    expect(parseError("a = 'x\u0000'").message).toContain('空字符');
    expect(parseError("a = 'x\ud800'").message).toContain('无效的 Unicode');
    expect(parseError("a = 'x\udc00y'").message).toContain('无效的 Unicode');
    expect(parseFilter("a = 'x\ud83d\ude00'")).toEqual([{ op: '=', field: 'a', value: 'x😀', position: 1 }]);
  });

  it('refuses numbers beyond double range', () => {
    expect(parseError(`a = 1e400`).message).toBe('筛选条件第 5 个字符处的数字超出范围');
    expect(parseError(`a = ${'9'.repeat(400)}`).message).toBe('筛选条件第 5 个字符处的数字超出范围');
  });

  it(`refuses more than ${MAX_FILTER_LENGTH} characters and more than ${MAX_FILTER_CONDITIONS} conditions`, () => {
    const long = `a contains '${'x'.repeat(MAX_FILTER_LENGTH)}'`;
    expect(parseError(long).message).toBe(`筛选条件过长（最多 ${MAX_FILTER_LENGTH} 个字符）`);
    const exactly = `a = '${'x'.repeat(MAX_FILTER_LENGTH - 6)}'`;
    expect(exactly.length).toBe(MAX_FILTER_LENGTH);
    expect(parseFilter(exactly)).toHaveLength(1);

    const conds = (n: number) => Array.from({ length: n }, (_, i) => `f${i} = ${i}`).join(' and ');
    expect(parseFilter(conds(MAX_FILTER_CONDITIONS))).toHaveLength(MAX_FILTER_CONDITIONS);
    expect(parseError(conds(MAX_FILTER_CONDITIONS + 1)).message).toBe(
      `筛选条件过多（最多 ${MAX_FILTER_CONDITIONS} 个）`,
    );
  });
});
