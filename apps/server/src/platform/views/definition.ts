import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema';

/*
 * A view's definition: its white list of columns (developer input: mistakes are programmer errors, thrown as
 * plain Errors, once per def), compiled once and checked against the live database. The engine (engine.ts)
 * lets nothing but these keys and expressions reach SQL.
 */

export type ViewColumnType = 'text' | 'number' | 'boolean' | 'date';

export interface ViewColumn {
  type: ViewColumnType;
  /**
   * SQL expression, default = quoted column name (`sql.ref(key)`). Written by developers, never from a request,
   * e.g. `{ type: 'boolean', sql: sql`limit_price = 0` }` or `{ type: 'number', sql: sql`volume_traded::integer` }`.
   * A 'date' column must be a timestamptz; a 'number' column any numeric type; a 'text' column text/varchar.
   */
  sql?: Expression<unknown>;
}

export interface ViewSortField {
  field: string;
  ascending: boolean;
}

export interface ViewDef {
  /** e.g. 'orders'; used in messages only. */
  name: string;
  /** Table or view to select from, e.g. 'v_orders' (optionally 'schema.relation'). */
  relation: keyof DB | (string & {});
  /** The white list: only these may be filtered, sorted, grouped, aggregated and returned. */
  columns: Record<string, ViewColumn>;
  /** Used when the request has no sort_fields (row mode). */
  defaultSort: ViewSortField[];
  /** Text columns the free-text `search` param matches with ILIKE (escaped), ORed. */
  searchColumns?: string[];
  /** Largest allowed slice_end − slice_start. Default {@link DEFAULT_MAX_SLICE}. */
  maxSlice?: number;
  /** Most rows (or groups) a request without slice_start/slice_end may return. Default {@link DEFAULT_MAX_ROWS}. */
  maxRows?: number;
}

/** Page size cap: a page of 1,000 rows is already far more than any table shows at once. */
export const DEFAULT_MAX_SLICE = 1000;
/**
 * "All rows" (no slice) is allowed for small views and exports, but not unbounded: more than this many matching
 * rows/groups is a 400 asking the client to page (rather than silently truncated, or a 10 MB answer).
 */
export const DEFAULT_MAX_ROWS = 10_000;

export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RELATION = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

export interface CompiledColumn {
  key: string;
  type: ViewColumnType;
  expr: Expression<unknown>;
}

export interface CompiledDef {
  def: ViewDef;
  relation: RawBuilder<unknown>;
  columns: Map<string, CompiledColumn>;
  maxSlice: number;
  maxRows: number;
}

const compiledDefs = new WeakMap<ViewDef, CompiledDef>();

export function compileDef(def: ViewDef): CompiledDef {
  const cached = compiledDefs.get(def);
  if (cached) return cached;
  const fail = (msg: string): never => {
    throw new Error(`view ${String(def.name)}: ${msg}`);
  };
  if (typeof def.relation !== 'string' || !RELATION.test(def.relation)) fail(`bad relation ${String(def.relation)}`);
  const columns = new Map<string, CompiledColumn>();
  for (const [key, col] of Object.entries(def.columns)) {
    if (!IDENTIFIER.test(key)) fail(`bad column name ${key}`);
    if (!['text', 'number', 'boolean', 'date'].includes(col.type)) fail(`column ${key}: bad type ${String(col.type)}`);
    columns.set(key, { key, type: col.type, expr: col.sql ?? sql.ref(key) });
  }
  if (columns.size === 0) fail('no columns');
  for (const s of def.defaultSort) if (!columns.has(s.field)) fail(`defaultSort field ${s.field} is not a column`);
  for (const f of def.searchColumns ?? []) {
    if (columns.get(f)?.type !== 'text') fail(`searchColumns: ${f} is not a text column`);
  }
  const positiveInt = (n: number | undefined, d: number, what: string) => {
    if (n === undefined) return d;
    if (!Number.isSafeInteger(n) || n <= 0) fail(`${what} must be a positive integer`);
    return n;
  };
  const compiled: CompiledDef = {
    def,
    relation: sql.table(def.relation),
    columns,
    maxSlice: positiveInt(def.maxSlice, DEFAULT_MAX_SLICE, 'maxSlice'),
    maxRows: positiveInt(def.maxRows, DEFAULT_MAX_ROWS, 'maxRows'),
  };
  compiledDefs.set(def, compiled);
  return compiled;
}

/** Checks a def's shape (throws Error on a programmer mistake) and returns it; call at module load. */
export function defineView<T extends ViewDef>(def: T): T {
  compileDef(def);
  return def;
}

const SQL_TYPES: Record<ViewColumnType, readonly string[]> = {
  number: ['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision'],
  text: ['text', 'character varying', 'character'],
  boolean: ['boolean'],
  date: ['timestamp with time zone'],
};

/**
 * Checks a def against the live database: the relation exists, every plain column exists with a SQL type that
 * fits its declared type, and every custom expression compiles. Returns the problems found ([] = fine). Meant for
 * a startup check or a test of each def (e.g. it catches v_orders.volume_traded, which is text, declared 'number').
 */
export async function checkViewDef(db: Kysely<DB>, def: ViewDef): Promise<string[]> {
  const c = compileDef(def);
  const [schema, relation] = def.relation.includes('.') ? def.relation.split('.') : [null, def.relation];
  const { rows } = await sql<{ column_name: string; data_type: string }>`
    select column_name, data_type from information_schema.columns
     where table_name = ${relation} and table_schema = coalesce(${schema}::text, current_schema())`.execute(db);
  if (rows.length === 0) return [`relation ${def.relation} not found`];
  const types = new Map(rows.map((r) => [r.column_name, r.data_type]));
  const problems: string[] = [];
  for (const [key, col] of Object.entries(def.columns)) {
    if (col.sql) continue;
    const actual = types.get(key);
    if (actual === undefined) problems.push(`column ${key} not found in ${def.relation}`);
    else if (!SQL_TYPES[col.type].includes(actual)) problems.push(`column ${key} is ${actual}, declared ${col.type}`);
  }
  for (const [key, col] of Object.entries(def.columns)) {
    if (!col.sql) continue;
    try {
      await sql`select ${col.sql} from ${c.relation} where false`.execute(db);
    } catch (e) {
      problems.push(`column ${key} does not compile: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}
