import type { SortingState, Updater as TableUpdater } from '@tanstack/react-table';
import type { SortEntry } from './pagination';

/** TanStack 的 updater（值或函数）求值。 */
export function resolveUpdater<S>(updater: TableUpdater<S>, previous: S): S {
  return typeof updater === 'function' ? (updater as (previous: S) => S)(previous) : updater;
}

export function toTanstackSorting(sorting: readonly SortEntry[]): SortingState {
  return sorting.map((s) => ({ id: s.field, desc: !s.ascending }));
}

export function fromTanstackSorting(sorting: SortingState): SortEntry[] {
  return sorting.map((s) => ({ field: s.id, ascending: !s.desc }));
}

/** 点击表头替换排序；只有 Shift+点击才追加排序列（所有表格一致）。 */
export const isMultiSortEvent = (event: unknown): boolean =>
  (event as { shiftKey?: boolean } | undefined)?.shiftKey === true;

export function ariaSortOf(direction: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
}
