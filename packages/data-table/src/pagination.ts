import type { SortField } from '@pfp/contract';
import { zh } from '@pfp/i18n';

/** 每页条数选项。 */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
/** 默认每页条数。 */
export const DEFAULT_PAGE_SIZE = 20;
/** 多列排序最多的列数。 */
export const MAX_SORT_COLUMNS = 3;

/** 发送给服务端的排序项。 */
export type SortEntry = SortField;

export interface PaginationInfo {
  /** 从 1 开始。 */
  currentPage: number;
  pageSize: number;
  /** 至少为 1（没有记录时也是 1 页）。 */
  totalPages: number;
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** 本页第一条记录的序号（从 1 开始）；本页没有记录时为 0。 */
  from: number;
  /** 本页最后一条记录的序号；本页没有记录时为 0。 */
  to: number;
}

export interface SliceRange {
  slice_start: number;
  slice_end: number;
}

function isPositiveInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

/** 页码必须是 ≥ 1 的整数，否则抛出 RangeError。 */
export function assertValidPage(page: number): void {
  if (!isPositiveInteger(page)) throw new RangeError(zh.table.invalidPage(page));
}

/** 每页条数必须是 ≥ 1 的整数，否则抛出 RangeError。 */
export function assertValidPageSize(pageSize: number): void {
  if (!isPositiveInteger(pageSize)) throw new RangeError(zh.table.invalidPageSize(pageSize));
}

/** 总页数（至少 1）。 */
export function totalPagesFor(pageSize: number, totalCount: number): number {
  assertValidPageSize(pageSize);
  return Math.max(1, Math.ceil(normalizeCount(totalCount) / pageSize));
}

/** 服务端返回的总数：非有限数或负数按 0 处理，小数向下取整。 */
function normalizeCount(totalCount: number): number {
  return Number.isFinite(totalCount) && totalCount > 0 ? Math.floor(totalCount) : 0;
}

/** 分页信息（纯函数）。page / pageSize 必须是 ≥ 1 的整数。 */
export function paginationInfo(page: number, pageSize: number, totalCount: number): PaginationInfo {
  assertValidPage(page);
  assertValidPageSize(pageSize);
  const count = normalizeCount(totalCount);
  const totalPages = Math.max(1, Math.ceil(count / pageSize));
  const start = (page - 1) * pageSize;
  const empty = start >= count;
  return {
    currentPage: page,
    pageSize,
    totalPages,
    totalCount: count,
    hasNextPage: page < totalPages,
    hasPreviousPage: page > 1,
    from: empty ? 0 : start + 1,
    to: empty ? 0 : Math.min(start + pageSize, count),
  };
}

/** 第 page 页对应的服务端切片 [slice_start, slice_end)。 */
export function sliceFor(page: number, pageSize: number): SliceRange {
  assertValidPage(page);
  assertValidPageSize(pageSize);
  const sliceStart = (page - 1) * pageSize;
  return { slice_start: sliceStart, slice_end: sliceStart + pageSize };
}

type SortItem = { field: string } | { id: string };

function sortKey(item: SortItem): string {
  return 'field' in item ? item.field : item.id;
}

/**
 * 限制排序列数：去掉重复的列（保留先出现的），只保留优先级最高的前 max 项。
 * 接受 `{ field, ascending }` 或 TanStack 的 `{ id, desc }`。
 */
export function limitSort<S extends SortItem>(sorting: readonly S[], max: number = MAX_SORT_COLUMNS): S[] {
  const limit = Number.isNaN(max) ? 0 : Math.max(0, Math.floor(max));
  const seen = new Set<string>();
  const result: S[] = [];
  for (const item of sorting) {
    if (result.length >= limit) break;
    const key = sortKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(item);
  }
  return result;
}
