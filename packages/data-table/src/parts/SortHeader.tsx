import { Text, UnstyledButton } from '@pfp/mantine';
import type { Header } from '@tanstack/react-table';
import { zh } from '@pfp/i18n';

/** 可排序的表头：点击替换排序，Shift+点击追加（最多 3 列）；多列排序时显示序号。 */
export function SortHeader<T>(props: { header: Header<T, unknown>; label: string; multiSorted: boolean }) {
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
