import type { CSSProperties, ReactNode } from 'react';
import { Group, Loader, Table, Text } from '@pfp/mantine';
import { flexRender, type Table as TanstackTable } from '@tanstack/react-table';
import { zh } from '@pfp/i18n';
import { isColumnFilterable } from '../columns';
import { ACTIONS_COLUMN_ID, columnOf } from '../columnDefs';
import type { FilterValue } from '../filterExpression';
import { ariaSortOf } from '../sorting';
import { ColumnFilterInput } from './ColumnFilterInput';
import { LoadErrorAlert } from './LoadErrorAlert';
import { SortHeader } from './SortHeader';

/** 操作列固定在右侧：表格再窄也看得见、点得到（横向滚动时不被滚走）。 */
const STICKY: CSSProperties = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--table-border-color)',
};
const stickyIf = (id: string): CSSProperties | undefined => (id === ACTIONS_COLUMN_ID ? STICKY : undefined);

export interface GridFilters {
  values: Readonly<Record<string, FilterValue>>;
  errorOf: (field: string) => string | undefined;
  delayMs: number;
  set: (field: string, value: FilterValue) => void;
}

/** 表头（排序行 + 筛选行）与表体（数据行，或加载中 / 错误 / 空状态）。 */
export function TableGrid<T>(props: {
  table: TanstackTable<T>;
  label: string | undefined;
  loading: boolean;
  error: Error | null;
  multiSorted: boolean;
  selectable: boolean;
  compact: boolean;
  filters: GridFilters | null;
}) {
  const { table, label, loading, error, multiSorted, selectable, compact, filters } = props;
  const rows = table.getRowModel().rows;
  const leafColumns = table.getVisibleLeafColumns();
  const width = leafColumns.reduce((sum, column) => sum + column.getSize(), 0);

  let body: ReactNode;
  if (rows.length > 0) {
    body = rows.map((row) => (
      <Table.Tr key={row.id} aria-selected={selectable ? row.getIsSelected() : undefined}>
        {row.getVisibleCells().map((cell) => (
          <Table.Td key={cell.id} style={stickyIf(cell.column.id)}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  } else {
    const content = loading ? (
      <Group justify="center" gap="xs">
        <Loader size="sm" />
        <Text c="dimmed">{zh.table.loading}</Text>
      </Group>
    ) : error ? (
      <LoadErrorAlert error={error} />
    ) : (
      <Text c="dimmed" ta="center">
        {zh.table.empty}
      </Text>
    );
    body = (
      <Table.Tr>
        <Table.Td colSpan={leafColumns.length}>{content}</Table.Td>
      </Table.Tr>
    );
  }

  return (
    <Table.ScrollContainer minWidth={width}>
      <Table
        layout="fixed"
        highlightOnHover
        horizontalSpacing={compact ? 6 : 'xs'}
        verticalSpacing={compact ? 6 : 'xs'}
        aria-label={label}
        aria-busy={loading}
      >
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column;
                const dataColumn = columnOf(column.columnDef);
                const sortable = dataColumn !== undefined && column.getCanSort();
                return (
                  <Table.Th
                    key={header.id}
                    aria-sort={sortable ? ariaSortOf(column.getIsSorted()) : undefined}
                    style={{ width: header.getSize(), minWidth: column.columnDef.minSize, ...stickyIf(column.id) }}
                  >
                    {sortable ? (
                      <SortHeader header={header} label={dataColumn.header} multiSorted={multiSorted} />
                    ) : header.isPlaceholder ? null : (
                      flexRender(column.columnDef.header, header.getContext())
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          ))}
          {filters ? (
            <Table.Tr>
              {leafColumns.map((column) => {
                const dataColumn = columnOf(column.columnDef);
                return (
                  <Table.Th key={column.id} style={stickyIf(column.id)}>
                    {dataColumn !== undefined && isColumnFilterable(dataColumn) ? (
                      <ColumnFilterInput
                        column={dataColumn}
                        value={filters.values[dataColumn.field]}
                        error={filters.errorOf(dataColumn.field)}
                        delayMs={filters.delayMs}
                        onChange={(value) => filters.set(dataColumn.field, value)}
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
  );
}
