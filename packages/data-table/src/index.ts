export { DataTable } from './DataTable';
export { TwoLineCell } from './parts/TwoLineCell';
export { fitColumns, type FitColumn } from './fitColumns';
export { loadErrorDetail } from './loadError';
export type {
  BulkActionContext,
  DataTableBaseProps,
  DataTableControllerSource,
  DataTableFetchSource,
  DataTableProps,
} from './DataTable';
export {
  cellValue,
  COLUMN_WIDTHS,
  defaultColumnWidth,
  filterConfigsOf,
  formatCellText,
  isColumnFilterable,
  valueAtPath,
} from './columns';
export type { ColumnKind, DataTableColumn } from './columns';
export {
  buildFilterExpression,
  compileFilters,
  filterCondition,
  quote,
  validateFilterConfig,
} from './filterExpression';
export type {
  BooleanFilterConfig,
  BooleanFilterValue,
  ColumnFilterConfig,
  ColumnFilterType,
  ColumnFilterValue,
  DateFilterConfig,
  FilterBuildResult,
  FilterConditionResult,
  FilterError,
  FilterValue,
  NumberFilterConfig,
  SelectFilterConfig,
  SelectOption,
  TextFilterConfig,
} from './filterExpression';
export {
  assertValidPage,
  assertValidPageSize,
  DEFAULT_PAGE_SIZE,
  limitSort,
  MAX_SORT_COLUMNS,
  PAGE_SIZE_OPTIONS,
  paginationInfo,
  sliceFor,
  totalPagesFor,
} from './pagination';
export type { PaginationInfo, SliceRange, SortEntry } from './pagination';
export { DEFAULT_REFRESH_INTERVAL_MS, defaultRowId, toPageResult, useServerTable } from './useServerTable';
export type {
  FetchPage,
  FilterValues,
  PageResult,
  ServerAnswer,
  ServerTable,
  ServerTableParams,
  Updater,
  UseServerTableOptions,
} from './useServerTable';
