import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fieldName,
  firstIssue,
  hasInvalidChars,
  id,
  ID_MAX,
  safeParseZh,
  text,
  timestamp,
  zhErrorMap,
} from './primitives';

const CJK = /[\u4e00-\u9fff]/;

describe('id: a JSON integer in 1…2^31−1', () => {
  const schema = z.object({ order_id: id() });
  it.each([1, 7, 2 ** 31 - 1])('accepts %s', (v) => {
    expect(safeParseZh(schema, { order_id: v }).success).toBe(true);
  });
  it.each([
    ['an array', [7]],
    ['a boolean', true],
    ['a hex string', '0x7'],
    ['a numeric string', '7'],
    ['a fraction', 1.5],
    ['zero', 0],
    ['a negative', -1],
    ['2^31', 2 ** 31],
    ['a huge number', 1e300],
    ['null', null],
    ['an object', { id: 7 }],
    ['missing', undefined],
  ])('refuses %s with a Chinese message naming the field', (_name, v) => {
    const r = safeParseZh(schema, { order_id: v });
    expect(r.success).toBe(false);
    const issue = firstIssue(r.error!);
    expect(issue.field).toBe('order_id');
    expect(issue.message).toMatch(CJK);
    expect(issue.message).toContain('order_id');
  });
  it('keeps a message of its own', () => {
    const r = safeParseZh(z.object({ contract_id: id('请选择合同') }), { contract_id: '1' });
    expect(firstIssue(r.error!)).toEqual({ message: '请选择合同', field: 'contract_id' });
  });
  it('bounds agree with PostgreSQL integer', () => expect(ID_MAX).toBe(2147483647));
});

describe('text: no NUL, no lone surrogate', () => {
  const schema = z.object({ name: text().trim().min(1) });
  it.each(['a', '贸易商', 'emoji 😀', ' x '])('accepts %j', (v) => {
    expect(safeParseZh(schema, { name: v }).success).toBe(true);
  });
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a high surrogate at the end', 'ab\ud83d'],
    ['a lone low surrogate', '\udc00'],
    ['reversed pair', '\ude00\ud83d'],
  ])('refuses %s', (_name, v) => {
    const r = safeParseZh(schema, { name: v });
    expect(r.success).toBe(false);
    expect(firstIssue(r.error!)).toEqual({ message: '参数 name 包含无效字符', field: 'name' });
  });
  it('hasInvalidChars agrees with encodeURIComponent, which throws on a lone surrogate', () => {
    const wellFormed = (s: string) => {
      try {
        encodeURIComponent(s);
        return true;
      } catch {
        return false;
      }
    };
    for (const s of ['', 'abc', '😀', '\ud800', '\udfff', 'a\ud83d\ude00b', '\ud83d\ud83d\ude00', 'x\u0000']) {
      expect(hasInvalidChars(s)).toBe(!wellFormed(s) || s.includes('\u0000'));
    }
  });
});

describe('zhErrorMap', () => {
  const schema = z.object({ a: z.object({ b: z.array(z.number()) }), s: z.string().max(2), e: z.enum(['x', 'y']) });
  it.each([
    [{ a: { b: ['1'] }, s: '', e: 'x' }, 'a.b[0]'],
    [{ a: { b: [] }, s: 'abc', e: 'x' }, 's'],
    [{ a: { b: [] }, s: '', e: 'z' }, 'e'],
    [{ s: '', e: 'x' }, 'a'],
  ])('names the field in Chinese (%j)', (input, field) => {
    const r = schema.safeParse(input, { error: zhErrorMap });
    const issue = firstIssue(r.error!);
    expect(issue.field).toBe(field);
    expect(issue.message).toContain(field);
    expect(issue.message).toMatch(CJK);
  });
  it('words a missing field and a wrong body', () => {
    expect(firstIssue(schema.safeParse({}, { error: zhErrorMap }).error!).message).toBe('缺少参数 a');
    expect(firstIssue(schema.safeParse([], { error: zhErrorMap }).error!).message).toBe('参数 请求体 应为对象');
  });
  it('words every type in Chinese, records and tuples too', () => {
    const words = (s: z.ZodType, input: unknown) =>
      firstIssue(s.safeParse(input, { error: zhErrorMap }).error!).message;
    expect(words(z.object({ p: z.record(z.string(), z.unknown()) }), { p: 'x' })).toBe('参数 p 应为对象');
    expect(words(z.object({ t: z.tuple([z.number()]) }), { t: 1 })).toBe('参数 t 应为数组');
    expect(words(z.object({ n: z.bigint() }), { n: 1 })).toBe('参数 n 类型不正确');
  });
});

describe('fieldName', () => {
  it('joins keys with dots and indices in brackets', () => {
    expect(fieldName(['sort_fields', 0, 'field'])).toBe('sort_fields[0].field');
    expect(fieldName([])).toBe('');
  });
});

describe('timestamp', () => {
  it('travels as ISO 8601 and is a Date on the server', () => {
    const at = new Date('2025-01-02T03:04:05.678Z');
    expect(z.encode(timestamp, at)).toBe('2025-01-02T03:04:05.678Z');
    expect(z.decode(timestamp, '2025-01-02T11:04:05.678+08:00').getTime()).toBe(at.getTime());
  });
});
