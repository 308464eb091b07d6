import { z } from 'zod';
import { fieldName, text } from './primitives';
import { MAX_AGGREGATE_FIELDS, MAX_FIELD_NAME, MAX_FILTER_LENGTH, MAX_GROUP_BY_FIELDS, MAX_SORT_FIELDS } from './rules';

/**
 * The database-view request (SPEC §7, ARCHITECTURE §4): POST /api/…/view/NAME with the caller's
 * params plus these. Keys a view does not know are ignored (they are the caller's own params).
 */

export const AGGREGATE_OPS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type AggregateOp = (typeof AGGREGATE_OPS)[number];

const PARAM_MESSAGES = {
  filter: '筛选条件 filter 必须是字符串',
  search: '搜索内容 search 必须是字符串',
  sort_fields: '排序参数 sort_fields 格式错误，应为 [{ field: 字段名, ascending: true/false }]',
  slice_start: '分页参数 slice_start 必须是非负整数',
  slice_end: '分页参数 slice_end 必须是非负整数',
  group_by_fields: '分组参数 group_by_fields 格式错误，应为字段名数组',
  aggregate_fields: '聚合参数 aggregate_fields 格式错误，应为 [{ field: 字段名, op: count/sum/avg/min/max }]',
} as const;

/** Every issue inside one param gets that param's message, with the position when nested. */
const says = (param: keyof typeof PARAM_MESSAGES) => ({
  error: (iss: { path?: PropertyKey[] }) =>
    iss.path && iss.path.length > 1
      ? `${PARAM_MESSAGES[param]}（位置：${fieldName(iss.path)}）`
      : PARAM_MESSAGES[param],
});

const fieldOf = (param: keyof typeof PARAM_MESSAGES) =>
  text(PARAM_MESSAGES[param]).min(1, says(param)).max(MAX_FIELD_NAME, says(param));
const sliceBound = (param: 'slice_start' | 'slice_end') =>
  z.int(says(param)).nonnegative(says(param)).max(Number.MAX_SAFE_INTEGER, says(param));

export const sortField = z.object(
  { field: fieldOf('sort_fields'), ascending: z.boolean(says('sort_fields')) },
  says('sort_fields'),
);
export type SortField = z.infer<typeof sortField>;

export const aggregateField = z.object(
  { field: fieldOf('aggregate_fields'), op: z.enum(AGGREGATE_OPS, says('aggregate_fields')) },
  says('aggregate_fields'),
);
export type AggregateField = z.infer<typeof aggregateField>;

/** The view params every list endpoint takes; `null` means absent. */
export const viewRequest = z.object(
  {
    /**
     * `cond (' and ' cond)*`. Its parser (apps/server/src/views/filter.ts) refuses NUL and lone
     * surrogates itself, with the position, so a plain string here.
     */
    filter: z
      .string(says('filter'))
      .max(MAX_FILTER_LENGTH, { error: `筛选条件过长（最多 ${MAX_FILTER_LENGTH} 个字符）` })
      .nullish(),
    /** Free text matched against the view's search columns. */
    search: text(PARAM_MESSAGES.search, '搜索内容包含无效字符').nullish(),
    sort_fields: z
      .array(sortField, says('sort_fields'))
      .max(MAX_SORT_FIELDS, { error: `排序字段最多 ${MAX_SORT_FIELDS} 个` })
      .nullish(),
    /** Rows slice_start … slice_end − 1; both or neither (neither = all rows, bounded). */
    slice_start: sliceBound('slice_start').nullish(),
    slice_end: sliceBound('slice_end').nullish(),
    group_by_fields: z
      .array(fieldOf('group_by_fields'), says('group_by_fields'))
      .max(MAX_GROUP_BY_FIELDS, { error: `分组字段最多 ${MAX_GROUP_BY_FIELDS} 个` })
      .nullish(),
    /** Each result key is `${op}_${field}`. */
    aggregate_fields: z
      .array(aggregateField, says('aggregate_fields'))
      .max(MAX_AGGREGATE_FIELDS, { error: `聚合字段最多 ${MAX_AGGREGATE_FIELDS} 个` })
      .nullish(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type ViewRequest = z.input<typeof viewRequest>;

/** A view's answer: the page (or the groups, or the one aggregate row) and the count of all matches. */
export const viewPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total_count: z.int().nonnegative() });
export type ViewPage<T> = { items: T[]; total_count: number };

/** Rows of a view vary with group_by_fields / aggregate_fields: the wire type is a plain record. */
export const viewRow = z.record(z.string(), z.unknown());
export const anyViewPage = viewPage(viewRow);
