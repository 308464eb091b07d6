import { sql, type CompiledQuery, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import {
  hasInvalidChars,
  MAX_AGGREGATE_FIELDS,
  MAX_GROUP_BY_FIELDS,
  MAX_SEARCH_LENGTH,
  MAX_SORT_FIELDS,
  type AggregateOp,
} from '@pfp/contract';
import type { DB } from '../db/schema';
import { PLANNED_PER_CALL } from '../db/preparedStatements';
import { shanghaiDayEnd, shanghaiDayStart } from '../time';
import { ViewCache } from './cache';
import { calendarDay, conditionExpr, containsExpr, parseBody, shown } from './conditions';
import { compileDef, IDENTIFIER, type CompiledColumn, type ViewDef } from './definition';
import { ViewError } from './errors';
import { parseFilter } from './filter';

/*
 * The "database view" engine behind every list endpoint (POST /api/…/view/NAME).
 *
 * Safety model: the only identifiers that ever reach SQL are the keys of `def.columns` / `scope` (checked against
 * IDENTIFIER in definition.ts when the def is first used) and the def's own trusted SQL expressions. Everything a request
 * carries is either looked up in the def's white list (and then replaced by the def's expression) or bound as a
 * query parameter. Nothing from the request is ever spliced into SQL text.
 */

export {
  checkViewDef,
  DEFAULT_MAX_ROWS,
  DEFAULT_MAX_SLICE,
  defineView,
  type ViewColumn,
  type ViewColumnType,
  type ViewDef,
  type ViewSortField,
} from './definition';
export { escapeLike } from './conditions';

/** Extra conditions a caller derives from its own view params (not from `filter`). */
export interface ViewOptions {
  /** 'YYYY-MM-DD': rows on or after this calendar day in Asia/Shanghai (e.g. the pricer's start_date). */
  createdFrom?: string;
  /** 'YYYY-MM-DD': rows on or before this calendar day in Asia/Shanghai (inclusive). */
  createdTo?: string;
  /** The date column createdFrom/createdTo apply to; default 'created_at'. */
  dateField?: string;
  /** Keeps big totals and big group answers for the polling interval (views/cache.ts). */
  cache?: ViewCache;
}

export type { AggregateOp };

export interface ViewResult {
  items: Record<string, unknown>[];
  total_count: number;
}

export { MAX_AGGREGATE_FIELDS, MAX_GROUP_BY_FIELDS, MAX_SEARCH_LENGTH, MAX_SORT_FIELDS };

const ROWS_KEY = 'view rows';

// ---------------------------------------------------------------------------------------------------------------
// Planning: body + scope → SQL (builders only, so tests can compile and inspect them)
// ---------------------------------------------------------------------------------------------------------------

export interface ViewPlan {
  mode: 'rows' | 'aggregate' | 'groups';
  /** The page (or the single aggregate row). */
  query: RawBuilder<Record<string, unknown>>;
  /** COUNT of all matching rows/groups; null when the page itself answers it. */
  countQuery: RawBuilder<{ count: number | string }> | null;
  /** Rows a request without a slice may return (the query asks for one more to detect overflow). */
  maxRows: number | null;
  /** The requested slice, if any (lets a short page answer the total without the COUNT). */
  slice: { start: number; end: number } | null;
  /** Output normalisation: keys whose values must come back as JS numbers. */
  numericKeys: string[];
  /** Hidden column of an unsliced groups query: the rows behind each group (stripped from the answer). */
  rowsKey: string | null;
}

/** A statement of caller-chosen shape and values: planned for each call's values (db/preparedStatements.ts). */
const perCall = <T>(query: RawBuilder<T>): RawBuilder<T> => sql<T>`${query} ${sql.raw(PLANNED_PER_CALL)}`;

/** Validates body and scope against the def and builds the SQL. Throws ViewError on any bad input. */
export function planView(
  def: ViewDef,
  body: unknown,
  scope: Record<string, string | number>,
  options: ViewOptions = {},
): ViewPlan {
  const c = compileDef(def);
  const b = parseBody(body);

  // WHERE: scope first (equality, never overridable: everything else is ANDed to it), then filter, then search.
  const where: RawBuilder<SqlBool>[] = [];
  for (const [key, value] of Object.entries(scope)) {
    if (!IDENTIFIER.test(key)) throw new Error(`view ${def.name}: bad scope column ${key}`);
    if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string') {
      throw new Error(`view ${def.name}: bad scope value for ${key}`);
    }
    where.push(sql<SqlBool>`${sql.ref(key)} = ${value}`);
  }
  if (options.createdFrom !== undefined || options.createdTo !== undefined) {
    const dateField = options.dateField ?? 'created_at';
    const col = c.columns.get(dateField);
    if (col?.type !== 'date') throw new Error(`view ${def.name}: ${dateField} is not a date column`);
    const bound = (value: string, label: string) => {
      const day = calendarDay(value);
      if (day === null)
        throw new ViewError(`${label} ${shown(value)} 不是有效日期（应为 YYYY-MM-DD）`, { field: dateField });
      return day;
    };
    if (options.createdFrom !== undefined) {
      const day = bound(options.createdFrom, '开始日期');
      where.push(sql<SqlBool>`${col.expr} >= ${shanghaiDayStart(day)}`);
    }
    if (options.createdTo !== undefined) {
      const day = bound(options.createdTo, '结束日期');
      where.push(sql<SqlBool>`${col.expr} < ${shanghaiDayEnd(day)}`);
    }
  }
  for (const cond of parseFilter(b.filter ?? '')) where.push(conditionExpr(c, cond));
  const search = (b.search ?? '').trim();
  if (search !== '') {
    const cols = def.searchColumns ?? [];
    if (cols.length === 0) throw new ViewError(`列表 ${def.name} 不支持搜索`, { field: 'search' });
    if (search.length > MAX_SEARCH_LENGTH) {
      throw new ViewError(`搜索内容过长（最多 ${MAX_SEARCH_LENGTH} 个字符）`, { field: 'search' });
    }
    if (hasInvalidChars(search)) throw new ViewError('搜索内容包含无效字符', { field: 'search' });
    const ors = cols.map((k) => containsExpr((c.columns.get(k) as CompiledColumn).expr, search));
    where.push(sql<SqlBool>`(${sql.join(ors, sql` or `)})`);
  }
  const whereSql = where.length === 0 ? sql`true` : sql.join(where, sql` and `);

  // Slice: both or neither.
  const hasStart = b.slice_start != null;
  const hasEnd = b.slice_end != null;
  if (hasStart !== hasEnd) {
    throw new ViewError('分页参数 slice_start 与 slice_end 必须同时提供', {
      field: hasStart ? 'slice_end' : 'slice_start',
    });
  }
  const slice = hasStart && hasEnd ? { start: b.slice_start as number, end: b.slice_end as number } : null;
  if (slice) {
    if (slice.end < slice.start) throw new ViewError('分页参数 slice_end 不能小于 slice_start', { field: 'slice_end' });
    if (slice.end - slice.start > c.maxSlice) {
      throw new ViewError(`每页最多 ${c.maxSlice} 行（slice_end − slice_start）`, { field: 'slice_end' });
    }
  }

  const column = (name: string, what: string): CompiledColumn => {
    const col = c.columns.get(name);
    if (!col) throw new ViewError(`不支持按字段 ${shown(name)} ${what}`, { field: name });
    return col;
  };

  // Group by and aggregates.
  const groups: CompiledColumn[] = [];
  for (const name of b.group_by_fields ?? []) {
    const col = column(name, '分组');
    if (groups.includes(col)) throw new ViewError(`分组字段 ${shown(name)} 重复`, { field: name });
    groups.push(col);
  }
  const aggregates: { key: string; expr: RawBuilder<unknown>; numeric: boolean }[] = [];
  for (const { field, op } of b.aggregate_fields ?? []) {
    const col = c.columns.get(field);
    if (!col) throw new ViewError(`不支持对字段 ${shown(field)} 聚合`, { field });
    if ((op === 'sum' || op === 'avg') && col.type !== 'number') {
      throw new ViewError(`字段 ${field} 不是数字类型，不能使用 ${op}`, { field });
    }
    if ((op === 'min' || op === 'max') && col.type === 'boolean') {
      throw new ViewError(`字段 ${field} 是布尔类型，不能使用 ${op}`, { field });
    }
    const key = `${op}_${field}`;
    if (aggregates.some((a) => a.key === key) || groups.some((g) => g.key === key)) {
      throw new ViewError(`聚合结果 ${key} 重复`, { field });
    }
    const expr = {
      count: sql`count(${col.expr})`,
      sum: sql`coalesce(sum(${col.expr}), 0)`,
      avg: sql`avg(${col.expr})`,
      min: sql`min(${col.expr})`,
      max: sql`max(${col.expr})`,
    }[op];
    aggregates.push({ key, expr, numeric: op === 'count' || op === 'sum' || op === 'avg' || col.type === 'number' });
  }
  const aggregateSelect = aggregates.map((a) => sql`${a.expr} as ${sql.id(a.key)}`);
  const aggregateNumeric = aggregates.filter((a) => a.numeric).map((a) => a.key);

  const requestedSort = b.sort_fields ?? [];
  const seen = new Set<string>();
  for (const s of requestedSort) {
    if (seen.has(s.field)) throw new ViewError(`排序字段 ${shown(s.field)} 重复`, { field: s.field });
    seen.add(s.field);
  }
  const dir = (ascending: boolean) => (ascending ? sql`asc` : sql`desc`);

  // ---- Aggregates over all matching rows: one item.
  if (groups.length === 0 && aggregates.length > 0) {
    for (const s of requestedSort) {
      if (!aggregates.some((a) => a.key === s.field)) {
        throw new ViewError(`聚合查询只能按聚合结果排序，不支持 ${shown(s.field)}`, { field: s.field });
      }
    }
    return {
      mode: 'aggregate',
      query: perCall(sql`select ${sql.join(aggregateSelect)} from ${c.relation} where ${whereSql}`),
      countQuery: null,
      maxRows: null,
      slice: null,
      numericKeys: aggregateNumeric,
      rowsKey: null,
    };
  }

  const limitOffset = (maxRows: number) =>
    slice ? sql` limit ${slice.end - slice.start} offset ${slice.start}` : sql` limit ${maxRows + 1}`;

  // ---- One item per group.
  if (groups.length > 0) {
    const order: RawBuilder<unknown>[] = [];
    for (const s of requestedSort) {
      const isKey = groups.some((g) => g.key === s.field) || aggregates.some((a) => a.key === s.field);
      if (!isKey) {
        throw new ViewError(`分组查询只能按分组字段或聚合结果排序，不支持 ${shown(s.field)}`, { field: s.field });
      }
      // An ORDER BY simple name means the output column (the alias), which is what is wanted here.
      order.push(sql`${sql.id(s.field)} ${dir(s.ascending)}`);
    }
    // Groups are unique on their fields: sorting by all of them last makes the order total (deterministic).
    for (const g of groups) if (!seen.has(g.key)) order.push(sql`${sql.id(g.key)} asc`);
    const groupSelect = groups.map((g) => sql`${g.expr} as ${sql.id(g.key)}`);
    // GROUP BY ordinals: a def expression with parameters would not match itself textually in GROUP BY.
    const ordinals = sql.join(groups.map((_, i) => sql.raw(String(i + 1))));
    // Unsliced: count(*) per group too (free in the same pass), so runView knows how many rows the answer sums up
    // and whether it is worth keeping (cache.ts). A name with a space: no def key can collide with it.
    const rowsSelect = slice ? [] : [sql`count(*) as ${sql.id(ROWS_KEY)}`];
    return {
      mode: 'groups',
      query: perCall(
        sql`select ${sql.join([...groupSelect, ...aggregateSelect, ...rowsSelect])} from ${c.relation} where ${whereSql} group by ${ordinals} order by ${sql.join(order)}${limitOffset(c.maxRows)}`,
      ),
      countQuery: slice
        ? perCall(
            sql`select count(*) as count from (select ${sql.join(groupSelect)} from ${c.relation} where ${whereSql} group by ${ordinals}) as g`,
          )
        : null,
      maxRows: slice ? null : c.maxRows,
      slice,
      numericKeys: [...groups.filter((g) => g.type === 'number').map((g) => g.key), ...aggregateNumeric],
      rowsKey: slice ? null : ROWS_KEY,
    };
  }

  // ---- The page of rows.
  const sort = requestedSort.length > 0 ? requestedSort : def.defaultSort;
  const order = sort.map((s) => sql`${column(s.field, '排序').expr} ${dir(s.ascending)}`);
  const idCol = c.columns.get('id');
  if (idCol && !sort.some((s) => s.field === 'id')) order.push(sql`${idCol.expr} desc`);
  const cols = [...c.columns.values()];
  const select = sql.join(cols.map((col) => sql`${col.expr} as ${sql.id(col.key)}`));
  const orderSql = order.length > 0 ? sql` order by ${sql.join(order)}` : sql``;
  return {
    mode: 'rows',
    query: perCall(sql`select ${select} from ${c.relation} where ${whereSql}${orderSql}${limitOffset(c.maxRows)}`),
    /*
     * total_count: a separate COUNT(*) after the page, not `count(*) over ()` in it.
     *
     * Measured on PostgreSQL 15 with v_orders over 1,000,000 orders (100 tenants × 10,000, rows of a tenant
     * spread over the table as real inserts are), asking page 1 of 20 rows by id desc for one tenant:
     *   page alone                   ~0.5 ms  walks (tenant_id, id desc), stops after 20 rows and 20 join lookups
     *   COUNT(*) alone                ~10 ms   all 10,000 rows, but narrow: no output columns, no sort
     *   page + count(*) over ()    ~15–20 ms  the top-N index scan is lost: WindowAgg must buffer all 10,000 full
     *                                         rows (every column, every join) in a tuplestore before the first row
     *                                         leaves, and it spills to disk once a tenant's rows outgrow work_mem
     * so page-then-COUNT costs about the COUNT alone and beats the window. (When the sort is not index-backed,
     * the page must read every match anyway and the two come out about even.) The window also cannot answer a
     * page past the end (no row carries the count), which needs a COUNT anyway.
     *
     * Running the COUNT after the page (one connection per request, not two) lets runView skip it when the page
     * itself tells the total: a short page (fewer rows than asked, and not an empty page past the end) ends the
     * result set, so total = slice_start + rows. Small tenants, selective filters and last pages then cost one
     * query. Requests without a slice never count. The two statements are separate snapshots, so under concurrent
     * writes the total can be off by the rows written in between, which a list view tolerates.
     */
    countQuery: slice ? perCall(sql`select count(*) as count from ${c.relation} where ${whereSql}`) : null,
    maxRows: slice ? null : c.maxRows,
    slice,
    numericKeys: cols.filter((col) => col.type === 'number').map((col) => col.key),
    rowsKey: null,
  };
}

function toNumber(v: unknown): unknown {
  if (typeof v === 'string' || typeof v === 'bigint') return Number(v);
  return v;
}

/** Planned and compiled views by request (issue 33 item 5): a poll asks the same again and again. */
const PLANS_PER_DEF = 1_000;
interface Planned {
  plan: ViewPlan;
  query: CompiledQuery<Record<string, unknown>>;
  /** Compiled when first needed (a short page answers its total itself). */
  countQuery(): CompiledQuery<{ count: number | string }> | null;
}
const planned = new WeakMap<Kysely<DB>, WeakMap<ViewDef, Map<string, Planned>>>();

/**
 * The plan and its SQL, built once per request (body, scope and conditions) and database, then reused: the desks
 * and consoles poll the same few requests, and building and compiling the SQL was a share of each answer's CPU
 * (docs/performance.md). Only valid requests are kept (a bad one throws before), at most PLANS_PER_DEF per view,
 * the oldest dropped first.
 */
function plannedView(
  db: Kysely<DB>,
  def: ViewDef,
  body: unknown,
  scope: Record<string, string | number>,
  options: ViewOptions,
): Planned {
  let byDef = planned.get(db);
  if (!byDef) planned.set(db, (byDef = new WeakMap()));
  let plans = byDef.get(def);
  if (!plans) byDef.set(def, (plans = new Map()));
  const key = JSON.stringify([body, scope, options.createdFrom, options.createdTo, options.dateField]);
  const hit = plans.get(key);
  if (hit) return hit;
  const plan = planView(def, body, scope, options);
  let count: CompiledQuery<{ count: number | string }> | null | undefined;
  const made: Planned = {
    plan,
    query: plan.query.compile(db),
    countQuery: () => (count ??= plan.countQuery ? plan.countQuery.compile(db) : null),
  };
  if (plans.size >= PLANS_PER_DEF) plans.delete(plans.keys().next().value as string);
  plans.set(key, made);
  return made;
}

/**
 * Runs a database view: validates `body` against the def's white list, ANDs `scope` (equality, e.g.
 * `{ tenant_id: 3 }`) to every query, and answers the page with the count of all matches. Throws ViewError (400,
 * INVALID_VIEW_PARAMS, Chinese message) for any bad input; body keys it does not know are ignored (the caller's
 * own view params). `options` carries conditions the caller derives from those params (a created_at day range).
 */
export async function runView(
  db: Kysely<DB>,
  def: ViewDef,
  body: unknown,
  scope: Record<string, string | number>,
  options: ViewOptions = {},
): Promise<ViewResult> {
  const { plan, query, countQuery } = plannedView(db, def, body, scope, options);
  const cache = options.cache;
  // An unsliced groups answer (the dashboard's stats) is kept whole; its key is the query, scope and filter.
  const groupsKey = cache && plan.rowsKey ? ViewCache.key(query) : null;
  const kept = groupsKey ? cache!.get<ViewResult>(groupsKey) : undefined;
  if (kept) return { items: kept.items.map((i) => ({ ...i })), total_count: kept.total_count };
  const items = (await db.executeQuery(query)).rows;
  if (plan.maxRows !== null && items.length > plan.maxRows) {
    throw new ViewError(`结果超过 ${plan.maxRows} 行，请使用 slice_start 与 slice_end 分页`, { field: 'slice_end' });
  }
  let rows = 0;
  if (plan.rowsKey) {
    for (const row of items) {
      rows += Number(row[plan.rowsKey]);
      delete row[plan.rowsKey];
    }
  }
  for (const row of items) for (const key of plan.numericKeys) if (key in row) row[key] = toNumber(row[key]);
  let total: number;
  if (plan.mode === 'aggregate') total = 1;
  else if (!plan.slice) total = items.length;
  else if (items.length < plan.slice.end - plan.slice.start && (items.length > 0 || plan.slice.start === 0)) {
    total = plan.slice.start + items.length; // a short page ends the result set
  } else if (plan.countQuery) {
    const countKey = cache ? ViewCache.key(countQuery()!) : null;
    const keptCount = countKey ? cache!.get<number>(countKey) : undefined;
    if (keptCount !== undefined) total = keptCount;
    else {
      total = Number((await db.executeQuery(countQuery()!)).rows[0]?.count ?? 0);
      if (countKey) cache!.offer(countKey, total, total);
    }
  } else total = 0;
  if (groupsKey) cache!.offer(groupsKey, { items: items.map((i) => ({ ...i })), total_count: total }, rows);
  return { items, total_count: total };
}
