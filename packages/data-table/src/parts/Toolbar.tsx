import type { ReactNode } from 'react';
import { Button, Code, Group, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { DebouncedTextInput } from './DebouncedInputs';

export interface SelectionTools {
  selectedCount: number;
  /** 本页可选择的行 id。 */
  pageRowIds: string[];
  allPageRowsSelected: boolean;
  selectPage: () => void;
  clear: () => void;
  bulkActions: ReactNode;
}

/** 工具栏：全局搜索（占位“搜索...”）、全选 / 取消全选、“已选择 N 项”与批量操作。 */
export function Toolbar(props: {
  search: { value: string; delayMs: number; onCommit: (value: string) => void } | null;
  selection: SelectionTools | null;
}) {
  const { search, selection } = props;
  return (
    <Group justify="space-between" gap="sm">
      {search ? (
        <DebouncedTextInput
          type="search"
          label={zh.table.searchLabel}
          placeholder={zh.table.search}
          value={search.value}
          delayMs={search.delayMs}
          onCommit={search.onCommit}
        />
      ) : (
        <span />
      )}
      {selection ? (
        <Group gap="sm">
          <Button
            variant="subtle"
            size="xs"
            disabled={selection.allPageRowsSelected || selection.pageRowIds.length === 0}
            onClick={selection.selectPage}
          >
            {zh.table.selectAll}
          </Button>
          <Button variant="subtle" size="xs" disabled={selection.selectedCount === 0} onClick={selection.clear}>
            {zh.table.deselectAll}
          </Button>
          <Text size="sm" aria-live="polite">
            {zh.table.selected(selection.selectedCount)}
          </Text>
          {selection.bulkActions}
        </Group>
      ) : null}
    </Group>
  );
}

/** 清除筛选行：当前的列筛选表达式与“清除筛选”。 */
export function FilterExpressionLine(props: { expression: string; onClear: () => void }) {
  return (
    <Group gap="xs">
      <Text size="sm">{zh.table.filterExpression}：</Text>
      <Code>{props.expression}</Code>
      <Button variant="subtle" size="xs" onClick={props.onClear} aria-label={zh.table.clearFilters}>
        {zh.table.clearFilters}
      </Button>
    </Group>
  );
}
