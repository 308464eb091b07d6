import type { ReactNode } from 'react';
import { Badge, Checkbox, Group } from '@pfp/mantine';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDateTime, zh } from '@pfp/i18n';
import { cellValue, COLUMN_WIDTHS, defaultColumnWidth, formatCellText, type DataTableColumn } from './columns';
import { TwoLineCell } from './parts/TwoLineCell';

export const SELECT_COLUMN_ID = '__select__';
export const ACTIONS_COLUMN_ID = '__actions__';
export const SELECT_COLUMN_WIDTH = 44;

/** 列定义上携带的数据列（选择列、操作列没有）。 */
export interface ColumnMeta<T> {
  column?: DataTableColumn<T>;
}

export const columnOf = <T,>(def: ColumnDef<T, unknown>): DataTableColumn<T> | undefined =>
  (def.meta as ColumnMeta<T> | undefined)?.column;

export const widthOf = <T,>(column: DataTableColumn<T>): number => column.width ?? defaultColumnWidth(column.kind);

/** 按 kind 渲染单元格（没有自定义 render 时）。 */
function defaultCell<T>(column: DataTableColumn<T>, row: T, value: unknown): ReactNode {
  if (column.kind === 'date' && column.twoLine && value !== null && value !== undefined && value !== '') {
    const text = formatDateTime(value as string | number | Date, column.showSeconds ?? false);
    const [day = text, time = ''] = text.split(' ');
    return <TwoLineCell top={day} bottom={time} />;
  }
  const text = formatCellText(value, column.kind, column.showSeconds);
  if (column.kind === 'badge' && text !== '-') {
    return (
      <Badge variant="light" color={column.badgeColor?.(value, row)}>
        {text}
      </Badge>
    );
  }
  return text;
}

/** DataTable 的 TanStack 列定义：（可选的）选择列、数据列、（可选的）操作列。 */
export function buildColumnDefs<T>(options: {
  columns: readonly DataTableColumn<T>[];
  selectable: boolean;
  renderRowActions: ((row: T) => ReactNode) | undefined;
  actionsWidth: number;
}): ColumnDef<T, unknown>[] {
  const { columns, selectable, renderRowActions, actionsWidth } = options;
  const defs: ColumnDef<T, unknown>[] = [];
  if (selectable) {
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
      size: widthOf(column),
      minSize: column.minWidth ?? COLUMN_WIDTHS.min,
      enableSorting: column.sortable ?? true,
      meta,
      cell: ({ row, getValue }) =>
        column.render ? column.render(row.original, getValue()) : defaultCell(column, row.original, getValue()),
    });
  }
  if (renderRowActions) {
    defs.push({
      id: ACTIONS_COLUMN_ID,
      header: zh.table.actions,
      size: actionsWidth,
      enableSorting: false,
      cell: ({ row }) => (
        <Group gap={4} wrap="nowrap">
          {renderRowActions(row.original)}
        </Group>
      ),
    });
  }
  return defs;
}
