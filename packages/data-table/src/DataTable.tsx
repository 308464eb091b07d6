import { useEffect, useEffectEvent, useMemo, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Loader,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@pfp/mantine';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type RowSelectionState,
  type SortingState,
  type Updater as TableUpdater,
} from '@tanstack/react-table';
import { zh } from '@pfp/i18n';
import {
  cellValue,
  COLUMN_WIDTHS,
  defaultColumnWidth,
  filterConfigsOf,
  formatCellText,
  isColumnFilterable,
  type DataTableColumn,
} from './columns';
import { validateFilterConfig, type ColumnFilterConfig, type FilterValue } from './filterExpression';
import { PAGE_SIZE_OPTIONS, type SortEntry } from './pagination';
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
  /** 提供时显示“操作”列。 */
  renderRowActions?: (row: T) => ReactNode;
  /** 批量操作插槽（显示在工具栏）。 */
  renderBulkActions?: (context: BulkActionContext<T>) => ReactNode;
  /** true 时每次点击表头都追加排序列（最多 3 列）；默认只有 Shift+点击才多列排序。 */
  alwaysMultiSort?: boolean;
  /** 每页条数选项，默认 [10, 20, 50, 100]。 */
  pageSizeOptions?: readonly number[];
  /** 搜索框与文本/数字筛选输入的防抖时间，默认 300 毫秒。 */
  debounceMs?: number;
}

type SourceOptions<T> = Omit<UseServerTableOptions<T>, 'filterConfigs' | 'enabled'>;

/** 由 DataTable 内部调用 useServerTable（筛选配置取自 columns）。 */
export type DataTableFetchSource<T> = SourceOptions<T> & { controller?: undefined };

/** 由调用方自己调用 useServerTable 并传入结果（便于在外部 refetch、读取选择等）。 */
export type DataTableControllerSource<T> = { controller: ServerTable<T> } & {
  [K in keyof SourceOptions<T>]?: undefined;
};

export type DataTableProps<T> = DataTableBaseProps<T> & (DataTableFetchSource<T> | DataTableControllerSource<T>);

const SELECT_COLUMN_ID = '__select__';
const ACTIONS_COLUMN_ID = '__actions__';
const SELECT_COLUMN_WIDTH = 44;
const DEFAULT_DEBOUNCE_MS = 300;

const noFetch: FetchPage<never> = () => Promise.resolve({ items: [], total_count: 0 });

interface ColumnMeta<T> {
  column?: DataTableColumn<T>;
}

function resolveUpdater<S>(updater: TableUpdater<S>, previous: S): S {
  return typeof updater === 'function' ? (updater as (previous: S) => S)(previous) : updater;
}

function toTanstackSorting(sorting: readonly SortEntry[]): SortingState {
  return sorting.map((s) => ({ id: s.field, desc: !s.ascending }));
}

function fromTanstackSorting(sorting: SortingState): SortEntry[] {
  return sorting.map((s) => ({ field: s.id, ascending: !s.desc }));
}

function hasValue(value: FilterValue): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '' && value !== 'all';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** 本地草稿 + 防抖提交；外部值变化（例如清除筛选）时同步草稿。 */
function useDebouncedDraft<V>(value: V, commit: (value: V) => void, delayMs: number): [V, (value: V) => void] {
  const [draft, setDraft] = useState(value);
  const [synced, setSynced] = useState(value);
  if (!Object.is(value, synced)) {
    setSynced(value);
    setDraft(value);
  }
  const fire = useEffectEvent((next: V) => commit(next));
  useEffect(() => {
    if (Object.is(draft, value)) return;
    const id = setTimeout(() => fire(draft), delayMs);
    return () => clearTimeout(id);
  }, [draft, value, delayMs]);
  return [draft, setDraft];
}

function DebouncedTextInput(props: {
  value: string;
  onCommit: (value: string) => void;
  delayMs: number;
  label: string;
  placeholder: string;
  error?: string | undefined;
  type?: 'text' | 'search';
}) {
  const [draft, setDraft] = useDebouncedDraft(props.value, props.onCommit, props.delayMs);
  return (
    <TextInput
      size="xs"
      type={props.type ?? 'text'}
      aria-label={props.label}
      placeholder={props.placeholder}
      value={draft}
      error={props.error}
      onChange={(event) => setDraft(event.currentTarget.value)}
    />
  );
}

function DebouncedNumberInput(props: {
  value: number | string;
  onCommit: (value: number | null) => void;
  delayMs: number;
  label: string;
  placeholder: string;
  min?: number | undefined;
  max?: number | undefined;
  error?: string | undefined;
}) {
  const commit = (next: number | string) => {
    if (next === '') props.onCommit(null);
    else if (typeof next === 'number' && Number.isFinite(next)) props.onCommit(next);
  };
  const [draft, setDraft] = useDebouncedDraft<number | string>(props.value, commit, props.delayMs);
  return (
    <NumberInput
      size="xs"
      aria-label={props.label}
      placeholder={props.placeholder}
      value={draft}
      min={props.min}
      max={props.max}
      error={props.error}
      onChange={setDraft}
    />
  );
}

function ColumnFilterInput<T>(props: {
  column: DataTableColumn<T>;
  value: FilterValue;
  error: string | undefined;
  delayMs: number;
  onChange: (value: FilterValue) => void;
}) {
  const { column, value, error, delayMs, onChange } = props;
  const label = zh.table.filterBy(column.header);
  const configError = validateFilterConfig(column.filter);
  if (configError !== null || column.filter === undefined) {
    return (
      <Text size="xs" c="red" aria-label={label}>
        {configError ?? zh.table.filterConfigError}
      </Text>
    );
  }
  const config: ColumnFilterConfig = column.filter;
  switch (config.type) {
    case 'boolean': {
      const current =
        value === true || value === 'true' ? 'true' : value === false || value === 'false' ? 'false' : 'all';
      return (
        <NativeSelect
          size="xs"
          aria-label={label}
          value={current}
          error={error}
          data={[
            { value: 'all', label: zh.table.all },
            { value: 'true', label: zh.table.yes },
            { value: 'false', label: zh.table.no },
          ]}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    }
    case 'text':
      return (
        <DebouncedTextInput
          label={label}
          placeholder={config.placeholder ?? zh.table.filterPlaceholder}
          value={typeof value === 'string' ? value : ''}
          error={error}
          delayMs={delayMs}
          onCommit={(text) => onChange(text === '' ? undefined : text)}
        />
      );
    case 'number':
      return (
        <DebouncedNumberInput
          label={label}
          placeholder={config.placeholder ?? zh.table.filterPlaceholder}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          min={config.min}
          max={config.max}
          error={error}
          delayMs={delayMs}
          onCommit={(n) => onChange(n ?? undefined)}
        />
      );
    case 'date':
      return (
        <TextInput
          size="xs"
          type="date"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          error={error}
          onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        />
      );
    case 'select': {
      const options = config.options.map((o) => ({ value: o.value, label: o.label }));
      if (config.multiple) {
        const selected = Array.isArray(value) ? [...value] : typeof value === 'string' && value !== '' ? [value] : [];
        return (
          <MultiSelect
            size="xs"
            aria-label={label}
            placeholder={selected.length === 0 ? (config.placeholder ?? zh.table.all) : undefined}
            data={options}
            value={selected}
            error={error}
            clearable
            onChange={(next) => onChange(next.length === 0 ? undefined : next)}
          />
        );
      }
      return (
        <NativeSelect
          size="xs"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          error={error}
          data={[{ value: '', label: config.placeholder ?? zh.table.all }, ...options]}
          onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        />
      );
    }
  }
}

function SortHeader<T>(props: { header: Header<T, unknown>; label: string; multiSorted: boolean }) {
  const { header, label, multiSorted } = props;
  const column = header.column;
  const direction = column.getIsSorted();
  const arrow = direction === 'asc' ? '↑' : direction === 'desc' ? '↓' : '↕';
  return (
    <UnstyledButton
      onClick={column.getToggleSortingHandler()}
      aria-label={zh.table.sortBy(label)}
      fw={600}
      fz="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
    >
      <span>{label}</span>
      <Text component="span" size="xs" c={direction ? undefined : 'dimmed'} aria-hidden>
        {arrow}
        {direction && multiSorted ? column.getSortIndex() + 1 : null}
      </Text>
    </UnstyledButton>
  );
}

function ariaSortOf(direction: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
}

/**
 * 服务端驱动的通用数据表格：分页、排序（最多 3 列）、筛选都由服务端完成。
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
    renderBulkActions,
    alwaysMultiSort = false,
    pageSizeOptions = PAGE_SIZE_OPTIONS,
    debounceMs = DEFAULT_DEBOUNCE_MS,
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

  const selectionEnabled = enableRowSelection !== false;
  const canSelectRow = (row: T): boolean =>
    typeof enableRowSelection === 'function' ? enableRowSelection(row) : enableRowSelection;

  const columnDefs = useMemo<ColumnDef<T, unknown>[]>(() => {
    const defs: ColumnDef<T, unknown>[] = [];
    if (selectionEnabled) {
      defs.push({
        id: SELECT_COLUMN_ID,
        size: SELECT_COLUMN_WIDTH,
        enableSorting: false,
        header: ({ table }) => (
          <Checkbox
            size="xs"
            aria-label={zh.table.selectPageRows}
            checked={table.getIsAllPageRowsSelected()}
            indeterminate={table.getIsSomePageRowsSelected()}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <Checkbox
            size="xs"
            aria-label={zh.table.selectRow}
            checked={row.getIsSelected()}
            disabled={!row.getCanSelect()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      });
    }
    for (const column of columns) {
      const meta: ColumnMeta<T> = { column };
      defs.push({
        id: column.field,
        accessorFn: (row) => cellValue(column, row),
        header: column.header,
        size: column.width ?? defaultColumnWidth(column.kind),
        minSize: column.minWidth ?? COLUMN_WIDTHS.min,
        enableSorting: column.sortable ?? true,
        meta,
        cell: ({ row, getValue }) => {
          const value = getValue();
          if (column.render) return column.render(row.original, value);
          const text = formatCellText(value, column.kind, column.showSeconds);
          if (column.kind === 'badge' && text !== '-') {
            return (
              <Badge variant="light" color={column.badgeColor?.(value, row.original)}>
                {text}
              </Badge>
            );
          }
          return text;
        },
      });
    }
    if (renderRowActions) {
      defs.push({
        id: ACTIONS_COLUMN_ID,
        header: zh.table.actions,
        size: COLUMN_WIDTHS.default,
        enableSorting: false,
        cell: ({ row }) => <Group gap={4}>{renderRowActions(row.original)}</Group>,
      });
    }
    return defs;
  }, [columns, selectionEnabled, renderRowActions]);

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
    isMultiSortEvent: (event) => alwaysMultiSort || (event as { shiftKey?: boolean } | undefined)?.shiftKey === true,
    sortDescFirst: false,
    enableRowSelection: (row) => canSelectRow(row.original),
    defaultColumn: { size: COLUMN_WIDTHS.default, minSize: COLUMN_WIDTHS.min },
    state: {
      sorting: toTanstackSorting(state.sorting),
      pagination: { pageIndex: state.page - 1, pageSize: state.pageSize },
      rowSelection,
    },
    onSortingChange: (updater) =>
      setSorting((previous) => fromTanstackSorting(resolveUpdater(updater, toTanstackSorting(previous)))),
    onRowSelectionChange: (updater) =>
      setSelectedIds((previous) => {
        const before: RowSelectionState = Object.fromEntries([...previous].map((id) => [id, true]));
        const after = resolveUpdater(updater, before);
        return new Set(Object.keys(after).filter((id) => after[id]));
      }),
    onPaginationChange: (updater) => {
      const next = resolveUpdater(updater, { pageIndex: state.page - 1, pageSize: state.pageSize });
      if (next.pageSize !== state.pageSize) setPageSize(next.pageSize);
      else setPage(next.pageIndex + 1);
    },
  });

  const { pagination, loading, error, rows } = state;
  const errorMessage = error ? error.message.trim() || zh.table.loadError : null;
  const selectedCount = state.selectedIds.size;
  const pageRowIds = table
    .getRowModel()
    .rows.filter((row) => row.getCanSelect())
    .map((row) => row.id);
  const allPageRowsSelected = pageRowIds.length > 0 && pageRowIds.every((id) => state.selectedIds.has(id));
  const hasColumnFilters =
    state.filterExpression !== '' || state.filterErrors.some((e) => hasValue(state.filters[e.field]));
  const filterable = columns.some(isColumnFilterable);
  const leafColumnCount = table.getVisibleLeafColumns().length;
  const sizeOptions = [...new Set([...pageSizeOptions, state.pageSize])].sort((a, b) => a - b);
  const filterErrorOf = (field: string) => state.filterErrors.find((e) => e.field === field)?.error;
  const tableLabel = ariaLabel ?? (typeof title === 'string' ? title : undefined);

  const errorAlert =
    errorMessage !== null ? (
      <Alert color="red" variant="light" role="alert">
        {errorMessage}
      </Alert>
    ) : null;

  let body: ReactNode;
  if (rows.length > 0) {
    body = table.getRowModel().rows.map((row) => (
      <Table.Tr key={row.id} aria-selected={selectionEnabled ? row.getIsSelected() : undefined}>
        {row.getVisibleCells().map((cell) => (
          <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
        ))}
      </Table.Tr>
    ));
  } else {
    const content = loading ? (
      <Group justify="center" gap="xs">
        <Loader size="sm" />
        <Text c="dimmed">{zh.table.loading}</Text>
      </Group>
    ) : errorAlert !== null ? (
      errorAlert
    ) : (
      <Text c="dimmed" ta="center">
        {zh.table.empty}
      </Text>
    );
    body = (
      <Table.Tr>
        <Table.Td colSpan={leafColumnCount}>{content}</Table.Td>
      </Table.Tr>
    );
  }

  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        {/* 标题栏 */}
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            {title !== undefined ? <Title order={4}>{title}</Title> : null}
            {description !== undefined ? (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            ) : null}
          </div>
          <Group gap="xs" wrap="nowrap">
            {loading && rows.length > 0 ? <Loader size="xs" aria-label={zh.table.loading} /> : null}
            {showRefreshButton ? (
              <Button
                variant="default"
                size="xs"
                onClick={state.refetch}
                disabled={loading}
                aria-label={zh.table.refresh}
              >
                {zh.table.refresh}
              </Button>
            ) : null}
          </Group>
        </Group>

        {/* 统计栏 */}
        {showStats ? (
          <Group gap="lg" aria-label={zh.table.stats} role="group">
            <Text size="sm">
              {zh.table.total}：{pagination.totalCount}
            </Text>
            <Text size="sm">
              {zh.table.currentPage}：{pagination.currentPage} / {pagination.totalPages}
            </Text>
            {selectionEnabled ? (
              <Text size="sm">
                {zh.table.selectedCount}：{selectedCount}
              </Text>
            ) : null}
          </Group>
        ) : null}

        {/* 工具栏 */}
        <Group justify="space-between" gap="sm">
          {enableGlobalSearch ? (
            <DebouncedTextInput
              type="search"
              label={zh.table.searchLabel}
              placeholder={zh.table.search}
              value={state.search}
              delayMs={debounceMs}
              onCommit={state.setSearch}
            />
          ) : (
            <span />
          )}
          {selectionEnabled ? (
            <Group gap="sm">
              <Button
                variant="subtle"
                size="xs"
                disabled={allPageRowsSelected || pageRowIds.length === 0}
                onClick={() => state.selectRows(pageRowIds)}
              >
                {zh.table.selectAll}
              </Button>
              <Button variant="subtle" size="xs" disabled={selectedCount === 0} onClick={state.clearSelection}>
                {zh.table.deselectAll}
              </Button>
              <Text size="sm" aria-live="polite">
                {zh.table.selected(selectedCount)}
              </Text>
              {renderBulkActions
                ? renderBulkActions({
                    selectedIds: [...state.selectedIds],
                    selectedRows: state.selectedRows,
                    clearSelection: state.clearSelection,
                    refetch: state.refetch,
                  })
                : null}
            </Group>
          ) : null}
        </Group>

        {hasColumnFilters ? (
          <Group gap="xs">
            <Text size="sm">{zh.table.filterExpression}：</Text>
            <Code>{state.filterExpression}</Code>
            <Button variant="subtle" size="xs" onClick={state.clearFilters} aria-label={zh.table.clearFilters}>
              {zh.table.clearFilters}
            </Button>
          </Group>
        ) : null}

        {rows.length > 0 ? errorAlert : null}

        {/* 表格 */}
        <Table.ScrollContainer minWidth={table.getTotalSize()}>
          <Table layout="fixed" highlightOnHover aria-label={tableLabel} aria-busy={loading}>
            <Table.Thead>
              {table.getHeaderGroups().map((group) => (
                <Table.Tr key={group.id}>
                  {group.headers.map((header) => {
                    const column = header.column;
                    const meta = column.columnDef.meta as ColumnMeta<T> | undefined;
                    const sortable = meta?.column !== undefined && column.getCanSort();
                    return (
                      <Table.Th
                        key={header.id}
                        aria-sort={sortable ? ariaSortOf(column.getIsSorted()) : undefined}
                        style={{ width: header.getSize(), minWidth: column.columnDef.minSize }}
                      >
                        {sortable && meta?.column ? (
                          <SortHeader
                            header={header}
                            label={meta.column.header}
                            multiSorted={state.sorting.length > 1}
                          />
                        ) : header.isPlaceholder ? null : (
                          flexRender(column.columnDef.header, header.getContext())
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              ))}
              {filterable ? (
                <Table.Tr>
                  {table.getVisibleLeafColumns().map((column) => {
                    const meta = column.columnDef.meta as ColumnMeta<T> | undefined;
                    const dataColumn = meta?.column;
                    return (
                      <Table.Th key={column.id}>
                        {dataColumn !== undefined && isColumnFilterable(dataColumn) ? (
                          <ColumnFilterInput
                            column={dataColumn}
                            value={state.filters[dataColumn.field]}
                            error={filterErrorOf(dataColumn.field)}
                            delayMs={debounceMs}
                            onChange={(value) => state.setFilter(dataColumn.field, value)}
                          />
                        ) : null}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              ) : null}
            </Table.Thead>
            <Table.Tbody style={loading && rows.length > 0 ? { opacity: 0.6 } : undefined}>{body}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        {/* 分页栏 */}
        <Group justify="space-between" gap="sm" role="navigation" aria-label={zh.table.pagination}>
          <Text size="sm">{zh.table.range(state.visibleRange.from, state.visibleRange.to, pagination.totalCount)}</Text>
          <Group gap={6}>
            <NativeSelect
              size="xs"
              aria-label={zh.table.pageSize}
              value={String(state.pageSize)}
              data={sizeOptions.map(String)}
              onChange={(event) => setPageSize(Number(event.currentTarget.value))}
            />
            <ActionIcon
              variant="default"
              aria-label={zh.table.firstPage}
              disabled={!pagination.hasPreviousPage}
              onClick={() => setPage(1)}
            >
              «
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={zh.table.previousPage}
              disabled={!pagination.hasPreviousPage}
              onClick={() => setPage(pagination.currentPage - 1)}
            >
              ‹
            </ActionIcon>
            <Text size="sm">{zh.table.page(pagination.currentPage, pagination.totalPages)}</Text>
            <ActionIcon
              variant="default"
              aria-label={zh.table.nextPage}
              disabled={!pagination.hasNextPage}
              onClick={() => setPage(pagination.currentPage + 1)}
            >
              ›
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={zh.table.lastPage}
              disabled={!pagination.hasNextPage}
              onClick={() => setPage(pagination.totalPages)}
            >
              »
            </ActionIcon>
            <Tooltip label={zh.table.comingSoon}>
              <div>
                <TextInput size="xs" w={64} disabled aria-label={zh.table.jumpTo} placeholder={zh.table.jumpTo} />
              </div>
            </Tooltip>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
