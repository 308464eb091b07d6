import type { ReactNode } from 'react';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';
import type { ColumnFilterConfig } from './filterExpression';

/** 列的显示类型，决定默认宽度与单元格格式。 */
export type ColumnKind = 'text' | 'number' | 'date' | 'boolean' | 'badge';

/** 列宽默认值（像素）。 */
export const COLUMN_WIDTHS = { default: 150, min: 20, date: 180, boolean: 100, badge: 120 } as const;

const EMPTY = '-';

export interface DataTableColumn<T> {
  /** 服务端字段名：同时是列 id、排序字段与筛选字段；默认按此路径（支持 'a.b'）取值。 */
  field: string;
  /** 表头文字。 */
  header: string;
  /** 默认 'text'。 */
  kind?: ColumnKind;
  /** 自定义取值，默认读取 row[field]。 */
  accessor?: (row: T) => unknown;
  /** 自定义单元格内容；不提供时按 kind 格式化。 */
  render?: (row: T, value: unknown) => ReactNode;
  /** 默认：date 180、boolean 100、badge 120、其余 150。 */
  width?: number;
  /** 默认 20。 */
  minWidth?: number;
  /** 是否可排序（服务端排序），默认 true。 */
  sortable?: boolean;
  /** 列筛选配置。 */
  filter?: ColumnFilterConfig;
  /** 是否显示筛选输入，默认 `filter !== undefined`；为 true 但缺少 filter 时显示“筛选配置错误”。 */
  filterable?: boolean;
  /** date 列是否显示秒，默认 false。 */
  showSeconds?: boolean;
  /** date 列分两行显示（日期在上、时间在下），用于窄列。 */
  twoLine?: boolean;
  /**
   * 表格放不下全部列时的隐藏顺序：1（默认）永远显示，数字越大越先隐藏（见 fitColumns）。
   * 这样笔记本屏幕上重要的列（状态、操作）不被挤出视野，宽屏显示更多列。
   */
  priority?: number;
  /** badge 列的颜色（Mantine 颜色名）。 */
  badgeColor?: (value: unknown, row: T) => string | undefined;
}

/** 列的默认宽度。 */
export function defaultColumnWidth(kind: ColumnKind | undefined): number {
  switch (kind) {
    case 'date':
      return COLUMN_WIDTHS.date;
    case 'boolean':
      return COLUMN_WIDTHS.boolean;
    case 'badge':
      return COLUMN_WIDTHS.badge;
    default:
      return COLUMN_WIDTHS.default;
  }
}

/** 按路径取值：'a.b' → row.a.b。 */
export function valueAtPath(row: unknown, path: string): unknown {
  let current: unknown = row;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** 单元格原始值。 */
export function cellValue<T>(column: DataTableColumn<T>, row: T): unknown {
  return column.accessor ? column.accessor(row) : valueAtPath(row, column.field);
}

/** 按列类型把值格式化为文本；null / undefined / '' → '-'。 */
export function formatCellText(value: unknown, kind: ColumnKind = 'text', showSeconds = false): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  switch (kind) {
    case 'date':
      return typeof value === 'string' || typeof value === 'number' || value instanceof Date
        ? formatDateTime(value, showSeconds)
        : EMPTY;
    case 'boolean':
      if (value === true) return zh.table.yes;
      if (value === false) return zh.table.no;
      return String(value);
    case 'number':
      return typeof value === 'number' ? formatNumber(value) : String(value);
    default:
      if (typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value);
      return String(value);
  }
}

/** 列是否显示筛选输入。 */
export function isColumnFilterable<T>(column: DataTableColumn<T>): boolean {
  return column.filterable ?? column.filter !== undefined;
}

/** 可筛选列的 { 字段: 筛选配置 }（缺失配置的列值为 undefined，编译时报“筛选配置错误”）。 */
export function filterConfigsOf<T>(
  columns: readonly DataTableColumn<T>[],
): Record<string, ColumnFilterConfig | undefined> {
  const configs: Record<string, ColumnFilterConfig | undefined> = {};
  for (const column of columns) {
    if (isColumnFilterable(column)) configs[column.field] = column.filter;
  }
  return configs;
}
