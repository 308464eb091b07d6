import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { zh } from '@pfp/i18n';
import {
  compileFilters,
  type ColumnFilterConfig,
  type ColumnFilterValue,
  type FilterError,
  type FilterValue,
} from './filterExpression';
import {
  assertValidPage,
  assertValidPageSize,
  DEFAULT_PAGE_SIZE,
  limitSort,
  MAX_SORT_COLUMNS,
  paginationInfo,
  sliceFor,
  type PaginationInfo,
  type SortEntry,
} from './pagination';

/** 自动刷新的默认间隔（毫秒）。 */
export const DEFAULT_REFRESH_INTERVAL_MS = 30_000;

/** 一页数据。 */
export interface PageResult<T> {
  items: T[];
  total_count: number;
}

/** 服务端应答 `{ data: { items, total_count } }`。 */
export interface ServerAnswer<T> {
  data: PageResult<T>;
}

/** 交给 fetchPage 的请求参数（可直接作为服务端视图请求体）。 */
export interface ServerTableParams {
  /** 列筛选（以及配置了 searchField 时的全局搜索）条件，用 ' and ' 连接；无条件时为 ''。 */
  filter: string;
  sort_fields: SortEntry[];
  slice_start: number;
  slice_end: number;
  /** 全局搜索文本：仅在未配置 searchField 且搜索框非空时出现。 */
  search?: string;
}

/** 取一页数据；可以返回 `{ items, total_count }` 或服务端原样应答 `{ data: { items, total_count } }`。 */
export type FetchPage<T> = (params: ServerTableParams, signal: AbortSignal) => Promise<PageResult<T> | ServerAnswer<T>>;

/** 列筛选值：{ 字段: 值 }。 */
export type FilterValues = Readonly<Record<string, FilterValue>>;

export type Updater<S> = S | ((previous: S) => S);

export interface UseServerTableOptions<T> {
  fetchPage: FetchPage<T>;
  /** 行 id（用于跨页保持选择）；index 为该行在全部结果中的序号。默认取 row.id，没有时用序号。 */
  getRowId?: (row: T, index: number) => string;
  /** 可筛选字段的配置；值为空的配置编译时报“筛选配置错误”。见 filterConfigsOf(columns)。 */
  filterConfigs?: Readonly<Record<string, ColumnFilterConfig | null | undefined>>;
  /** 配置后全局搜索作为 `searchField contains '...'` 并入 filter；否则作为 params.search 发送。 */
  searchField?: string;
  /** 默认 1。 */
  initialPage?: number;
  /** 默认 20。 */
  initialPageSize?: number;
  initialSorting?: readonly SortEntry[];
  initialFilters?: FilterValues;
  initialSearch?: string;
  /** 多列排序最多列数，默认 3。 */
  maxSortColumns?: number;
  /** 是否自动刷新；默认：提供了 refetchIntervalMs 时开启，否则关闭。 */
  autoRefresh?: boolean;
  /** 自动刷新间隔，默认 30000 毫秒。 */
  refetchIntervalMs?: number;
  /** false 时不请求数据，默认 true。 */
  enabled?: boolean;
}

export interface ServerTable<T> {
  /** 当前页数据；加载新页时保留上一页数据。 */
  rows: T[];
  /** 与 rows 对应的行 id。 */
  rowIds: string[];
  totalCount: number;
  loading: boolean;
  error: Error | null;
  refetch: () => void;

  page: number;
  pageSize: number;
  /** 当前（请求中的）页码、每页条数与最近一次应答的总数。 */
  pagination: PaginationInfo;
  /** 正在显示的行的序号范围（从 1 开始；没有行时为 0 - 0），加载新页期间仍对应上一页的数据。 */
  visibleRange: { from: number; to: number };
  sorting: SortEntry[];
  maxSortColumns: number;
  filters: FilterValues;
  search: string;
  /** 列筛选表达式（不含全局搜索）。 */
  filterExpression: string;
  filterErrors: FilterError[];
  /** 当前请求参数。 */
  params: ServerTableParams;

  selectedIds: ReadonlySet<string>;
  /** 已选择且加载过的行（跨页）。 */
  selectedRows: T[];

  /** page 必须是 ≥ 1 的整数。 */
  setPage: (page: number) => void;
  /** pageSize 必须是 ≥ 1 的整数；页码重置为 1。 */
  setPageSize: (pageSize: number) => void;
  /** 超过 maxSortColumns 的排序项被丢弃。 */
  setSorting: (sorting: Updater<readonly SortEntry[]>) => void;
  /** 页码重置为 1。 */
  setFilter: (field: string, value: FilterValue) => void;
  /** 页码重置为 1。 */
  setFilters: (filters: Updater<FilterValues>) => void;
  /** 清除全部列筛选，页码重置为 1。 */
  clearFilters: () => void;
  /** 页码重置为 1。 */
  setSearch: (search: string) => void;

  setSelectedIds: (ids: Updater<ReadonlySet<string>>) => void;
  toggleRowSelected: (id: string, selected?: boolean) => void;
  selectRows: (ids: Iterable<string>) => void;
  deselectRows: (ids: Iterable<string>) => void;
  clearSelection: () => void;
  isRowSelected: (id: string) => boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** 把 `{ items, total_count }` 或 `{ data: { items, total_count } }` 规整为 PageResult；格式错误时抛出“数据加载失败”。 */
export function toPageResult<T>(answer: unknown): PageResult<T> {
  let page: unknown = answer;
  if (isRecord(answer) && !Array.isArray(answer.items) && isRecord(answer.data)) page = answer.data;
  if (!isRecord(page) || !Array.isArray(page.items)) throw new Error(zh.table.loadError);
  const items = page.items as T[];
  const total = page.total_count;
  const totalCount =
    typeof total === 'number' && Number.isFinite(total) && total >= 0 ? Math.floor(total) : items.length;
  return { items, total_count: totalCount };
}

function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  if (typeof reason === 'string' && reason.trim() !== '') return new Error(reason);
  return new Error(zh.table.loadError);
}

/** 默认行 id：row.id（字符串或数字），否则为序号。 */
export function defaultRowId(row: unknown, index: number): string {
  const id = isRecord(row) ? row.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : String(index);
}

function resolve<S>(updater: Updater<S>, previous: S): S {
  return typeof updater === 'function' ? (updater as (previous: S) => S)(previous) : updater;
}

interface Completed<T> {
  key: string | null;
  rows: T[];
  rowIds: string[];
  totalCount: number;
  error: Error | null;
  sliceStart: number;
}

/**
 * 服务端分页 / 排序 / 筛选的表格状态。与数据请求库无关：调用方提供 fetchPage。
 * 页大小、筛选、搜索变化时页码重置为 1；选择按行 id 保存（跨页）；过期的应答被忽略。
 */
export function useServerTable<T>(options: UseServerTableOptions<T>): ServerTable<T> {
  const {
    fetchPage,
    getRowId,
    filterConfigs,
    searchField,
    initialPage = 1,
    initialPageSize = DEFAULT_PAGE_SIZE,
    initialSorting,
    initialFilters,
    initialSearch = '',
    maxSortColumns = MAX_SORT_COLUMNS,
    autoRefresh,
    refetchIntervalMs,
    enabled = true,
  } = options;

  const [page, setPageState] = useState(() => {
    assertValidPage(initialPage);
    return initialPage;
  });
  const [pageSize, setPageSizeState] = useState(() => {
    assertValidPageSize(initialPageSize);
    return initialPageSize;
  });
  const [sorting, setSortingState] = useState<SortEntry[]>(() => limitSort(initialSorting ?? [], maxSortColumns));
  const [filters, setFiltersState] = useState<FilterValues>(() => ({ ...initialFilters }));
  const [search, setSearchState] = useState(initialSearch);
  const [selectedIds, setSelectedIdsState] = useState<ReadonlySet<string>>(() => new Set());
  const [nonce, setNonce] = useState(0);
  const [completed, setCompleted] = useState<Completed<T>>({
    key: null,
    rows: [],
    rowIds: [],
    totalCount: 0,
    error: null,
    sliceStart: 0,
  });
  const [rowCache, setRowCache] = useState<ReadonlyMap<string, T>>(() => new Map());

  // 列筛选表达式
  const { expression: filterExpression, errors: filterErrors } = useMemo(() => {
    const fields = new Set([...Object.keys(filterConfigs ?? {}), ...Object.keys(filters)]);
    const list: ColumnFilterValue[] = [...fields].map((field) => ({
      field,
      config: filterConfigs?.[field],
      value: filters[field],
    }));
    return compileFilters(list);
  }, [filterConfigs, filters]);

  const trimmedSearch = search.trim();
  const searchExpression = useMemo(
    () =>
      searchField
        ? compileFilters([{ field: searchField, config: { type: 'text' }, value: trimmedSearch }]).expression
        : '',
    [searchField, trimmedSearch],
  );
  const filter = [filterExpression, searchExpression].filter((part) => part !== '').join(' and ');
  const searchParam = !searchField && trimmedSearch !== '' ? trimmedSearch : undefined;

  const params = useMemo<ServerTableParams>(() => {
    const result: ServerTableParams = {
      filter,
      sort_fields: sorting.map((s) => ({ field: s.field, ascending: s.ascending })),
      ...sliceFor(page, pageSize),
    };
    if (searchParam !== undefined) result.search = searchParam;
    return result;
  }, [filter, sorting, page, pageSize, searchParam]);

  const requestKey = `${JSON.stringify(params)}#${nonce}`;

  // 跨页保存的已选择行（只保留已选择的行与当前页）。
  const selectedRef = useRef(selectedIds);
  useEffect(() => {
    selectedRef.current = selectedIds;
  }, [selectedIds]);

  const seqRef = useRef(0);
  const startFetch = useEffectEvent((request: ServerTableParams, key: string, signal: AbortSignal) => {
    const seq = ++seqRef.current;
    const rowIdOf = getRowId ?? defaultRowId;
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(fetchPage(request, signal));
    } catch (reason) {
      pending = Promise.reject(reason);
    }
    pending
      .then(
        (answer) => {
          if (seq !== seqRef.current) return;
          const { items, total_count } = toPageResult<T>(answer);
          const rowIds = items.map((row, i) => rowIdOf(row, request.slice_start + i));
          setRowCache((previous) => {
            const next = new Map<string, T>();
            for (const [id, row] of previous) if (selectedRef.current.has(id)) next.set(id, row);
            items.forEach((row, i) => next.set(rowIds[i] ?? String(i), row));
            return next;
          });
          setCompleted({
            key,
            rows: items,
            rowIds,
            totalCount: total_count,
            error: null,
            sliceStart: request.slice_start,
          });
          // 数据减少后当前页超出范围：回到最后一页。
          const size = request.slice_end - request.slice_start;
          const requestedPage = request.slice_start / size + 1;
          const lastPage = Math.max(1, Math.ceil(total_count / size));
          if (requestedPage > lastPage) setPageState(lastPage);
        },
        (reason: unknown) => {
          if (seq !== seqRef.current) return;
          setCompleted((previous) => ({ ...previous, key, error: toError(reason) }));
        },
      )
      .catch((reason: unknown) => {
        if (seq !== seqRef.current) return;
        setCompleted((previous) => ({ ...previous, key, error: toError(reason) }));
      });
  });

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    startFetch(params, requestKey, controller.signal);
    return () => controller.abort();
  }, [enabled, params, requestKey]);

  // 自动刷新
  const pollEnabled = autoRefresh ?? refetchIntervalMs !== undefined;
  const intervalMs = pollEnabled ? (refetchIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS) : 0;
  useEffect(() => {
    if (!enabled || !(intervalMs > 0)) return;
    const id = setInterval(() => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      setNonce((n) => n + 1);
    }, intervalMs);
    return () => clearInterval(id);
  }, [enabled, intervalMs]);

  const refetch = useCallback(() => setNonce((n) => n + 1), []);

  const setPage = useCallback((next: number) => {
    assertValidPage(next);
    setPageState(next);
  }, []);

  const setPageSize = useCallback((next: number) => {
    assertValidPageSize(next);
    setPageSizeState(next);
    setPageState(1);
  }, []);

  const setSorting = useCallback(
    (updater: Updater<readonly SortEntry[]>) =>
      setSortingState((previous) => limitSort(resolve(updater, previous), maxSortColumns)),
    [maxSortColumns],
  );

  const setFilters = useCallback((updater: Updater<FilterValues>) => {
    setFiltersState((previous) => resolve(updater, previous));
    setPageState(1);
  }, []);

  const setFilter = useCallback(
    (field: string, value: FilterValue) => setFilters((previous) => ({ ...previous, [field]: value })),
    [setFilters],
  );

  const clearFilters = useCallback(() => setFilters({}), [setFilters]);

  const setSearch = useCallback((next: string) => {
    setSearchState(next);
    setPageState(1);
  }, []);

  const setSelectedIds = useCallback(
    (updater: Updater<ReadonlySet<string>>) => setSelectedIdsState((previous) => resolve(updater, previous)),
    [],
  );

  const toggleRowSelected = useCallback((id: string, selected?: boolean) => {
    setSelectedIdsState((previous) => {
      const select = selected ?? !previous.has(id);
      if (select === previous.has(id)) return previous;
      const next = new Set(previous);
      if (select) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const selectRows = useCallback((ids: Iterable<string>) => {
    setSelectedIdsState((previous) => new Set([...previous, ...ids]));
  }, []);

  const deselectRows = useCallback((ids: Iterable<string>) => {
    setSelectedIdsState((previous) => {
      const next = new Set(previous);
      for (const id of ids) next.delete(id);
      return next;
    });
  }, []);

  const clearSelection = useCallback(() => setSelectedIdsState(new Set()), []);

  const isRowSelected = useCallback((id: string) => selectedIds.has(id), [selectedIds]);

  const selectedRows = useMemo(
    () =>
      [...selectedIds].flatMap((id) => {
        const row = rowCache.get(id);
        return row === undefined ? [] : [row];
      }),
    [selectedIds, rowCache],
  );

  const pagination = useMemo(
    () => paginationInfo(page, pageSize, completed.totalCount),
    [page, pageSize, completed.totalCount],
  );

  const { rows, sliceStart } = completed;
  const visibleRange = useMemo(
    () => (rows.length === 0 ? { from: 0, to: 0 } : { from: sliceStart + 1, to: sliceStart + rows.length }),
    [rows, sliceStart],
  );

  return {
    rows,
    rowIds: completed.rowIds,
    totalCount: completed.totalCount,
    loading: enabled && completed.key !== requestKey,
    error: completed.error,
    refetch,
    page,
    pageSize,
    pagination,
    visibleRange,
    sorting,
    maxSortColumns,
    filters,
    search,
    filterExpression,
    filterErrors,
    params,
    selectedIds,
    selectedRows,
    setPage,
    setPageSize,
    setSorting,
    setFilter,
    setFilters,
    clearFilters,
    setSearch,
    setSelectedIds,
    toggleRowSelected,
    selectRows,
    deselectRows,
    clearSelection,
    isRowSelected,
  };
}
