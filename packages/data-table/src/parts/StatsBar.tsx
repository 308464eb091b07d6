import { Group, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { PaginationInfo } from '../pagination';

/** 统计栏：总数、当前页与（可选择行时）已选数量。 */
export function StatsBar(props: { pagination: PaginationInfo; selectedCount: number | null }) {
  const { pagination, selectedCount } = props;
  return (
    <Group gap="lg" aria-label={zh.table.stats} role="group">
      <Text size="sm">
        {zh.table.total}：{pagination.totalCount}
      </Text>
      <Text size="sm">
        {zh.table.currentPage}：{pagination.currentPage} / {pagination.totalPages}
      </Text>
      {selectedCount !== null ? (
        <Text size="sm">
          {zh.table.selectedCount}：{selectedCount}
        </Text>
      ) : null}
    </Group>
  );
}
