import { zh } from '@pfp/i18n';

/** 下拉筛选的一个选项。 */
export interface SelectOption {
  value: string;
  label: string;
}

export interface BooleanFilterConfig {
  type: 'boolean';
}

export interface TextFilterConfig {
  type: 'text';
  placeholder?: string;
}

export interface SelectFilterConfig {
  type: 'select';
  options: readonly SelectOption[];
  /** 多选时发送 `field in [...]`，单选时发送 `field = '...'`。 */
  multiple?: boolean;
  placeholder?: string;
}

export interface NumberFilterConfig {
  type: 'number';
  min?: number;
  max?: number;
  placeholder?: string;
}

export interface DateFilterConfig {
  type: 'date';
}

/** 列筛选配置。 */
export type ColumnFilterConfig =
  BooleanFilterConfig | TextFilterConfig | SelectFilterConfig | NumberFilterConfig | DateFilterConfig;

export type ColumnFilterType = ColumnFilterConfig['type'];

/** 布尔筛选的取值：全部 / 是 / 否。 */
export type BooleanFilterValue = 'all' | 'true' | 'false';

/**
 * 筛选输入的值：
 * - boolean：'all' | 'true' | 'false'（也接受 true / false）；
 * - text：字符串；
 * - select：单选为字符串，多选为字符串数组；
 * - number：数字或数字字符串；
 * - date：'YYYY-MM-DD' 或 Date（取本地日期）。
 * 空字符串、空数组、null、undefined（以及布尔的 'all'）表示不筛选。
 */
export type FilterValue = string | number | boolean | Date | readonly string[] | null | undefined;

/** 一个列筛选：服务端字段名、配置（缺失时为配置错误）与当前值。 */
export interface ColumnFilterValue {
  field: string;
  config: ColumnFilterConfig | null | undefined;
  value: FilterValue;
}

/** 单个筛选的编译结果：条件（null 表示该筛选为空而被忽略）或错误。 */
export type FilterConditionResult =
  { ok: true; field: string; condition: string | null } | { ok: false; field: string; error: string };

export interface FilterError {
  field: string;
  error: string;
}

export interface FilterBuildResult {
  /** 用 ' and ' 连接的条件；没有条件时为 ''。 */
  expression: string;
  /** 配置缺失或取值无效的筛选（它们不会出现在 expression 中）。 */
  errors: FilterError[];
}

const FILTER_TYPES: ReadonlySet<string> = new Set<ColumnFilterType>(['boolean', 'text', 'select', 'number', 'date']);
const FIELD_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 用单引号包裹文本，其中的 `\` 与 `'` 转义为 `\\` 与 `\'`。 */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** 检查筛选配置；返回错误信息（'筛选配置错误'）或 null。 */
export function validateFilterConfig(config: unknown): string | null {
  if (typeof config !== 'object' || config === null) return zh.table.filterConfigError;
  const type = (config as { type?: unknown }).type;
  if (typeof type !== 'string' || !FILTER_TYPES.has(type)) return zh.table.filterConfigError;
  if (type === 'select') {
    const options = (config as { options?: unknown }).options;
    if (!Array.isArray(options)) return zh.table.filterConfigError;
    const valid = options.every(
      (o: unknown) =>
        typeof o === 'object' &&
        o !== null &&
        typeof (o as SelectOption).value === 'string' &&
        typeof (o as SelectOption).label === 'string',
    );
    if (!valid) return zh.table.filterConfigError;
  }
  return null;
}

function isEmpty(value: FilterValue): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** 'YYYY-MM-DD'（校验是否为真实日期）或 Date（本地日期）→ 'YYYY-MM-DD'；无效 → null。 */
function toIsoDate(value: FilterValue): string | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return `${String(value.getFullYear()).padStart(4, '0')}-${pad2(value.getMonth() + 1)}-${pad2(value.getDate())}`;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return valid ? text : null;
}

function toNumber(value: FilterValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : null;
}

/** 把一个列筛选编译成条件（纯函数）。 */
export function filterCondition(filter: ColumnFilterValue): FilterConditionResult {
  const { field, config, value } = filter;
  const configError = validateFilterConfig(config);
  if (configError !== null || !config || !FIELD_PATTERN.test(field)) {
    return { ok: false, field, error: configError ?? zh.table.filterConfigError };
  }
  const ok = (condition: string | null): FilterConditionResult => ({ ok: true, field, condition });
  const invalid: FilterConditionResult = { ok: false, field, error: zh.table.filterValueError };

  switch (config.type) {
    case 'boolean': {
      if (isEmpty(value) || value === 'all') return ok(null);
      if (value === true || value === 'true') return ok(`${field} is true`);
      if (value === false || value === 'false') return ok(`${field} is false`);
      return invalid;
    }
    case 'text': {
      if (isEmpty(value)) return ok(null);
      if (typeof value !== 'string' && typeof value !== 'number') return invalid;
      return ok(`${field} contains ${quote(String(value).trim())}`);
    }
    case 'select': {
      if (isEmpty(value)) return ok(null);
      if (config.multiple) {
        const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
        if (values === null || values.some((v) => typeof v !== 'string')) return invalid;
        const selected = values.filter((v) => v !== '');
        return ok(selected.length === 0 ? null : `${field} in [${selected.map(quote).join(',')}]`);
      }
      let single: unknown = value;
      if (Array.isArray(value)) {
        const selected = value.filter((v) => v !== '');
        if (selected.length === 0) return ok(null);
        if (selected.length > 1) return invalid;
        single = selected[0];
      }
      return typeof single === 'string' ? ok(`${field} = ${quote(single)}`) : invalid;
    }
    case 'number': {
      if (isEmpty(value)) return ok(null);
      const n = toNumber(value);
      // `+ 0` 把 -0 变成 0，避免发送 '-0'。
      return n === null ? invalid : ok(`${field} = ${String(n + 0)}`);
    }
    case 'date': {
      if (isEmpty(value)) return ok(null);
      const date = toIsoDate(value);
      return date === null ? invalid : ok(`${field} = ${quote(date)}`);
    }
  }
}

/** 编译全部列筛选：条件用 ' and ' 连接，空值被忽略，错误单独列出。 */
export function compileFilters(filters: readonly ColumnFilterValue[]): FilterBuildResult {
  const conditions: string[] = [];
  const errors: FilterError[] = [];
  for (const filter of filters) {
    const result = filterCondition(filter);
    if (!result.ok) errors.push({ field: result.field, error: result.error });
    else if (result.condition !== null) conditions.push(result.condition);
  }
  return { expression: conditions.join(' and '), errors };
}

/** 发送给服务端的 filter 字符串，例如 `active is true and name contains 'x'`；无条件时为 ''。 */
export function buildFilterExpression(filters: readonly ColumnFilterValue[]): string {
  return compileFilters(filters).expression;
}
