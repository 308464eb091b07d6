import { useMemo, type ReactNode } from 'react';
import { Card, Stack } from '@pfp/mantine';
import { getCoreRowModel, useReactTable, type RowSelectionState } from '@tanstack/react-table';
import { buildColumnDefs, SELECT_COLUMN_WIDTH } from './columnDefs';
import { COLUMN_WIDTHS, filterConfigsOf, isColumnFilterable, type DataTableColumn } from './columns';
import type { FilterValue } from './filterExpression';
import { PAGE_SIZE_OPTIONS } from './pagination';
import { LoadErrorAlert } from './parts/LoadErrorAlert';
import { PaginationBar } from './parts/PaginationBar';
import { StatsBar } from './parts/StatsBar';
import { TableGrid } from './parts/TableGrid';
import { TableHeading } from './parts/TableHeading';
import { FilterExpressionLine, Toolbar } from './parts/Toolbar';
import { fromTanstackSorting, isMultiSortEvent, resolveUpdater, toTanstackSorting } from './sorting';
import { useFittedColumns } from './useFittedColumns';
import { useServerTable, type FetchPage, type ServerTable, type UseServerTableOptions } from './useServerTable';

/** 批量操作插槽收到的选择信息。 */
export interface BulkActionContext<T> {
  /** 已选择的行 id（跨页）。 */
  selectedIds: string[];
  /** 已选择且加载过的行。 */
  selectedRows: T[];
  clearSelection: () => void;
  refetch: () => void;
}

export interface DataTableBaseProps<T> {
  columns: readonly DataTableColumn<T>[];
  title?: ReactNode;
  description?: ReactNode;
  /** 表格的无障碍名称，默认使用字符串形式的 title。 */
  ariaLabel?: string;
  /** 显示刷新按钮，默认 true。 */
  showRefreshButton?: boolean;
  /** 显示统计栏（总数、当前页、已选），默认 false。 */
  showStats?: boolean;
  /** 显示全局搜索框，默认 true。 */
  enableGlobalSearch?: boolean;
  /** 行选择列；函数形式决定某一行能否被选择。 */
  enableRowSelection?: boolean | ((row: T) => boolean);
  /** 提供时显示“操作”列（固定在右侧）。 */
  renderRowActions?: (row: T) => ReactNode;
  /** “操作”列宽度，默认 150。 */
  actionsColumnWidth?: number;
  /** 批量操作插槽（显示在工具栏）。 */
  renderBulkActions?: (context: BulkActionContext<T>) => ReactNode;
  /** 每页条数选项，默认 [10, 20, 50, 100]。 */
  pageSizeOptions?: readonly number[];
  /** 搜索框与文本/数字筛选输入的防抖时间，默认 300 毫秒。 */
  debounceMs?: number;
  /** 'compact'：更小的单元格与卡片内边距（手机屏幕），默认 'default'。 */
  density?: 'default' | 'compact';
}

type SourceOptions<T> = Omit<UseServerTableOptions<T>, 'filterConfigs' | 'enabled'>;

/** 由 DataTable 内部调用 useServerTable（筛选配置取自 columns）。 */
export type DataTableFetchSource<T> = SourceOptions<T> & { controller?: undefined };

/** 由调用方自己调用 useServerTable 并传入结果（便于在外部 refetch、读取选择等）。 */
export type DataTableControllerSource<T> = { controller: ServerTable<T> } & {
  [K in keyof SourceOptions<T>]?: undefined;
};

export type DataTableProps<T> = DataTableBaseProps<T> & (DataTableFetchSource<T> | DataTableControllerSource<T>);

const DEFAULT_DEBOUNCE_MS = 300;

const noFetch: FetchPage<never> = () => Promise.resolve({ items: [], total_count: 0 });

function hasValue(value: FilterValue): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '' && value !== 'all';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * 服务端驱动的通用数据表格（SPEC §2 “Generic data-table pattern”）：分页、排序（点击替换，
 * Shift+点击追加，最多 3 列）、筛选都由服务端完成；放不下时按列的 priority 隐藏次要列，操作列固定在右侧。
 * 传入 fetchPage（内部调用 useServerTable），或传入 controller（外部 useServerTable 的结果）。
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const {
    columns,
    title,
    description,
    ariaLabel,
    showRefreshButton = true,
    showStats = false,
    enableGlobalSearch = true,
    enableRowSelection = false,
    renderRowActions,
    actionsColumnWidth = COLUMN_WIDTHS.default,
    renderBulkActions,
    pageSizeOptions = PAGE_SIZE_OPTIONS,
    debounceMs = DEFAULT_DEBOUNCE_MS,
    density = 'default',
    controller,
    fetchPage,
    ...sourceOptions
  } = props;

  const filterConfigs = useMemo(() => filterConfigsOf(columns), [columns]);
  const internal = useServerTable<T>({
    ...sourceOptions,
    fetchPage: fetchPage ?? (noFetch as FetchPage<T>),
    filterConfigs,
    enabled: controller === undefined,
  });
  const state: ServerTable<T> = controller ?? internal;

  const selectable = enableRowSelection !== false;
  const canSelectRow = (row: T): boolean =>
    typeof enableRowSelection === 'function' ? enableRowSelection(row) : enableRowSelection;

  const columnDefs = useMemo(
    () => buildColumnDefs({ columns, selectable, renderRowActions, actionsWidth: actionsColumnWidth }),
    [columns, selectable, renderRowActions, actionsColumnWidth],
  );
  const fixedWidth = (selectable ? SELECT_COLUMN_WIDTH : 0) + (renderRowActions ? actionsColumnWidth : 0);
  const fitted = useFittedColumns(columns, fixedWidth);

  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries([...state.selectedIds].map((id) => [id, true])),
    [state.selectedIds],
  );

  const { setSorting, setSelectedIds, setPage, setPageSize } = state;
  const table = useReactTable<T>({
    data: state.rows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (_row, index) => state.rowIds[index] ?? String(index),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    pageCount: state.pagination.totalPages,
    rowCount: state.pagination.totalCount,
    enableMultiSort: true,
    maxMultiSortColCount: state.maxSortColumns,
    isMultiSortEvent,
    sortDescFirst: false,
    enableRowSelection: (row) => canSelectRow(row.original),
    defaultColumn: { size: COLUMN_WIDTHS.default, minSize: COLUMN_WIDTHS.min },
    state: {
      sorting: toTanstackSorting(state.sorting),
      pagination: { pageIndex: state.page - 1, pageSize: state.pageSize },
      rowSelection,
      columnVisibility: fitted.visibility,
    },
    onSortingChange: (updater) =>
      setSorting((previous) => fromTanstackSorting(resolveUpdater(updater, toTanstackSorting(previous)))),
    onRowSelectionChange: (updater) =>
      setSelectedIds((previous) => {
        const before: RowSelectionState = Object.fromEntries([...previous].map((id) => [id, true]));
        const after = resolveUpdater(updater, before);
        return new Set(Object.keys(after).filter((id) => after[id]));
      }),
  });

  const { pagination, loading, error, rows } = state;
  const selectedCount = state.selectedIds.size;
  const pageRowIds = table
    .getRowModel()
    .rows.filter((row) => row.getCanSelect())
    .map((row) => row.id);
  const hasColumnFilters =
    state.filterExpression !== '' || state.filterErrors.some((e) => hasValue(state.filters[e.field]));
  const filterable = columns.some(isColumnFilterable);

  return (
    <Card withBorder padding={density === 'compact' ? 'sm' : 'md'} radius="md">
      <Stack gap="sm">
        <TableHeading
          title={title}
          description={description}
          loading={loading}
          reloading={loading && rows.length > 0}
          onRefresh={showRefreshButton ? state.refetch : undefined}
        />
        {showStats ? <StatsBar pagination={pagination} selectedCount={selectable ? selectedCount : null} /> : null}
        <Toolbar
          search={enableGlobalSearch ? { value: state.search, delayMs: debounceMs, onCommit: state.setSearch } : null}
          selection={
            selectable
              ? {
                  selectedCount,
                  pageRowIds,
                  allPageRowsSelected: pageRowIds.length > 0 && pageRowIds.every((id) => state.selectedIds.has(id)),
                  selectPage: () => state.selectRows(pageRowIds),
                  clear: state.clearSelection,
                  bulkActions: renderBulkActions?.({
                    selectedIds: [...state.selectedIds],
                    selectedRows: state.selectedRows,
                    clearSelection: state.clearSelection,
                    refetch: state.refetch,
                  }),
                }
              : null
          }
        />
        {hasColumnFilters ? (
          <FilterExpressionLine expression={state.filterExpression} onClear={state.clearFilters} />
        ) : null}
        {/* 有旧数据时，错误显示在表格上方；没有数据时显示在表体里。 */}
        {rows.length > 0 && error ? <LoadErrorAlert error={error} /> : null}
        <div ref={fitted.ref} data-hidden-columns={Object.keys(fitted.visibility).join(' ') || undefined}>
          <TableGrid
            table={table}
            label={ariaLabel ?? (typeof title === 'string' ? title : undefined)}
            loading={loading}
            error={error}
            multiSorted={state.sorting.length > 1}
            selectable={selectable}
            compact={density === 'compact'}
            filters={
              filterable
                ? {
                    values: state.filters,
                    errorOf: (field) => state.filterErrors.find((e) => e.field === field)?.error,
                    delayMs: debounceMs,
                    set: state.setFilter,
                  }
                : null
            }
          />
        </div>
        <PaginationBar
          pagination={pagination}
          visibleRange={state.visibleRange}
          pageSize={state.pageSize}
          pageSizeOptions={pageSizeOptions}
          setPage={setPage}
          setPageSize={setPageSize}
        />
      </Stack>
    </Card>
  );
}
