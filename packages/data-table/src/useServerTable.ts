import type { ViewPage, ViewRequest } from '@pfp/contract';
import { hashKey, keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useState } from 'react';
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

/** 一页数据（视图的应答 data）。 */
export type PageResult<T> = ViewPage<T>;

/** 服务端应答 `{ data: { items, total_count } }`。 */
export interface ServerAnswer<T> {
  data: PageResult<T>;
}

/** 交给 fetchPage 的请求参数：一个视图请求（可直接作为服务端视图请求体）。 */
export interface ServerTableParams extends ViewRequest {
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
  /**
   * react-query 查询键前缀，每页的键为 `[...queryKey, params]`（按前缀失效即可刷新这个表格）。
   * 默认为只属于这个 hook 实例的键。
   */
  queryKey?: QueryKey;
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
  /** 正在请求（换页、刷新、自动刷新）。 */
  loading: boolean;
  error: Error | null;
  /** 重新加载当前页（要等待加载结束，用 queryClient.refetchQueries 按 queryKey 刷新）。 */
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

/** One loaded page and where it starts (for row ids and the visible range). */
interface LoadedPage<T> extends PageResult<T> {
  sliceStart: number;
}

/** The rows of a loaded page with their ids. */
function rowsWithIds<T>(page: LoadedPage<T>, rowIdOf: (row: T, index: number) => string): Array<[string, T]> {
  return page.items.map((row, i) => [rowIdOf(row, page.sliceStart + i), row]);
}

/**
 * 服务端分页 / 排序 / 筛选的表格状态，数据经 react-query 取得（需要 QueryClientProvider）：
 * 查询键为 `[...queryKey, params]`，加载新页时保留上一页数据，自动刷新即 refetchInterval。
 * 页大小、筛选、搜索变化时页码重置为 1；选择按行 id 保存（跨页）。
 */
export function useServerTable<T>(options: UseServerTableOptions<T>): ServerTable<T> {
  const {
    queryKey,
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

  // An unnamed table keeps its pages to itself; the key is stable however the caller spells it.
  const instanceId = useId();
  const baseHash = hashKey(queryKey ?? ['@pfp/data-table', instanceId]);
  const baseKey = useMemo(() => JSON.parse(baseHash) as QueryKey, [baseHash]);
  const pollEnabled = autoRefresh ?? refetchIntervalMs !== undefined;
  const intervalMs = pollEnabled ? (refetchIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS) : 0;

  const query = useQuery({
    queryKey: [...baseKey, params],
    queryFn: async ({ signal }): Promise<LoadedPage<T>> => {
      try {
        return { ...toPageResult<T>(await fetchPage(params, signal)), sliceStart: params.slice_start };
      } catch (reason) {
        throw toError(reason);
      }
    },
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: intervalMs > 0 ? intervalMs : false,
  });
  const loaded = query.data;

  // 数据减少后当前页超出范围：回到最后一页（在渲染中调整状态，而不是在 effect 里）。
  if (loaded && !query.isPlaceholderData) {
    const lastPage = Math.max(1, Math.ceil(loaded.total_count / pageSize));
    if (page > lastPage) setPageState(lastPage);
  }

  const { refetch: refetchQuery } = query;
  const refetch = useCallback(() => void refetchQuery(), [refetchQuery]);

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

  // 已选择的行：从这个表格缓存的各页中取（跨页），当前页最新。
  const queryClient = useQueryClient();
  const rowIdOf = getRowId ?? defaultRowId;
  const selectedRows = useMemo(() => {
    if (selectedIds.size === 0) return [];
    const byId = new Map<string, T>();
    for (const [, cached] of queryClient.getQueriesData<LoadedPage<T>>({ queryKey: baseKey })) {
      if (cached) for (const [id, row] of rowsWithIds(cached, rowIdOf)) byId.set(id, row);
    }
    if (loaded) for (const [id, row] of rowsWithIds(loaded, rowIdOf)) byId.set(id, row);
    return [...selectedIds].flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [row];
    });
  }, [selectedIds, queryClient, baseKey, loaded, rowIdOf]);

  const totalCount = loaded?.total_count ?? 0;
  const pagination = useMemo(() => paginationInfo(page, pageSize, totalCount), [page, pageSize, totalCount]);

  const rows = useMemo(() => loaded?.items ?? [], [loaded]);
  const rowIds = useMemo(() => (loaded ? rowsWithIds(loaded, rowIdOf).map(([id]) => id) : []), [loaded, rowIdOf]);
  const visibleRange = useMemo(
    () =>
      !loaded || loaded.items.length === 0
        ? { from: 0, to: 0 }
        : { from: loaded.sliceStart + 1, to: loaded.sliceStart + loaded.items.length },
    [loaded],
  );

  return {
    rows,
    rowIds,
    totalCount,
    loading: enabled && query.isFetching,
    error: query.error,
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
