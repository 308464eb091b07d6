import { firstIssue, safeParseZh, viewRequest } from '@pfp/contract';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { shanghaiDayEnd, shanghaiDayStart } from '../time';
import type { CompiledDef, ViewColumnType } from './definition';
import { ViewError } from './errors';
import type { FilterCondition, FilterLiteral } from './filter';

/*
 * The request (user input: every problem is a ViewError) and its conditions in SQL: the filter's conditions,
 * the free-text search, Beijing calendar days. Values are always bound as parameters.
 */

/** Largest integer bound as an untyped parameter (so PostgreSQL gives it the column's own type and keeps indexes). */
const INT4_MAX = 2147483647;

export type Body = z.output<typeof viewRequest>;

/** The body against the contract's view request (the route has checked it too; the engine is also called directly). */
export function parseBody(body: unknown): Body {
  const result = safeParseZh(viewRequest, body ?? {});
  if (result.success) return result.data;
  const { message } = firstIssue(result.error);
  const root = result.error.issues[0]?.path[0];
  throw new ViewError(message, { field: root === undefined ? undefined : String(root) });
}

/** Shortens a user-supplied name before it goes into a message. */
export function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}

/** `%`, `_` and `\` escaped for `LIKE … ESCAPE '\'`. */
export function escapeLike(text: string): string {
  let out = '';
  for (const ch of text) out += ch === '%' || ch === '_' || ch === '\\' ? `\\${ch}` : ch;
  return out;
}

export function containsExpr(expr: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${expr} ilike ${`%${escapeLike(text)}%`} escape '\\'`;
}

/**
 * A number as a bound parameter. Small integers go untyped, so PostgreSQL gives the parameter the column's own
 * type (integer, bigint, numeric…) and can use its indexes. Anything else (fractions, beyond int4, exponents) is
 * cast to numeric: an integer column is then compared as numeric instead of failing with "invalid input syntax
 * for type integer" / "out of range".
 */
function numberParam(n: number): RawBuilder<unknown> {
  return Number.isInteger(n) && Math.abs(n) <= INT4_MAX ? sql`${String(n)}` : sql`cast(${String(n)} as numeric)`;
}

/** 'YYYY-MM-DD' naming a real calendar day (year 0001–9999), else null. */
export function calendarDay(value: string): string | null {
  if (value.length !== 10 || value[4] !== '-' || value[7] !== '-') return null;
  const parts = [value.slice(0, 4), value.slice(5, 7), value.slice(8, 10)];
  if (!parts.every((p) => [...p].every((c) => c >= '0' && c <= '9'))) return null;
  const [y, m, d] = parts.map(Number) as [number, number, number];
  if (y < 1) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : null;
}

/**
 * That calendar day in Asia/Shanghai as a half-open range, computed by PostgreSQL (tz database, so historical
 * offsets are right too). A range on the raw timestamptz column keeps its indexes usable.
 */
function shanghaiDay(expr: Expression<unknown>, day: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${expr} >= ${shanghaiDayStart(day)} and ${expr} < ${shanghaiDayEnd(day)})`;
}

const TYPE_NAMES: Record<ViewColumnType, string> = { text: '文本', number: '数字', boolean: '布尔', date: '日期' };

export function conditionExpr(c: CompiledDef, cond: FilterCondition): RawBuilder<SqlBool> {
  const col = c.columns.get(cond.field);
  const opts = { field: cond.field, position: cond.position };
  if (!col) throw new ViewError(`不支持按字段 ${shown(cond.field)} 筛选`, opts);
  const name = shown(cond.field);
  const mismatch = (detail: string) =>
    new ViewError(`筛选条件第 ${cond.position} 个字符处：字段 ${name} 是${TYPE_NAMES[col.type]}类型，${detail}`, opts);

  if (cond.op === 'is') {
    if (col.type !== 'boolean') throw mismatch('不能使用 is true/false');
    return cond.value ? sql<SqlBool>`${col.expr} is true` : sql<SqlBool>`${col.expr} is false`;
  }
  if (cond.op === 'contains') {
    if (col.type !== 'text') throw mismatch('不能使用 contains');
    return containsExpr(col.expr, cond.value);
  }
  const values: FilterLiteral[] = cond.op === 'in' ? cond.values : [cond.value];
  // `in []` is the empty set: it matches no rows (the consistent answer, and what `x in ()` would mean in SQL).
  if (values.length === 0) return sql<SqlBool>`false`;
  switch (col.type) {
    case 'boolean':
      throw mismatch('请使用 is true 或 is false');
    case 'text': {
      const params = values.map((v) => {
        if (typeof v !== 'string') throw mismatch('比较的值必须是带引号的字符串');
        return sql`${v}`;
      });
      return params.length === 1
        ? sql<SqlBool>`${col.expr} = ${params[0]}`
        : sql<SqlBool>`${col.expr} in (${sql.join(params)})`;
    }
    case 'number': {
      const params = values.map((v) => {
        if (typeof v !== 'number') throw mismatch('比较的值必须是数字（不加引号）');
        return numberParam(v);
      });
      return params.length === 1
        ? sql<SqlBool>`${col.expr} = ${params[0]}`
        : sql<SqlBool>`${col.expr} in (${sql.join(params)})`;
    }
    case 'date': {
      const ranges = values.map((v) => {
        const day = typeof v === 'string' ? calendarDay(v) : null;
        if (day === null) throw mismatch("比较的值必须是 'YYYY-MM-DD' 格式的有效日期");
        return shanghaiDay(col.expr, day);
      });
      return ranges.length === 1 ? (ranges[0] as RawBuilder<SqlBool>) : sql<SqlBool>`(${sql.join(ranges, sql` or `)})`;
    }
  }
}
