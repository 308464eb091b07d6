import { ActionIcon, Group, NativeSelect, Text, TextInput, Tooltip } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { PaginationInfo } from '../pagination';

/** 分页栏：“显示第 a - b 条，共 n 条记录”、每页条数、首页/上一页/下一页/末页、“第 x / y 页”与（暂不可用的）跳转。 */
export function PaginationBar(props: {
  pagination: PaginationInfo;
  visibleRange: { from: number; to: number };
  pageSize: number;
  pageSizeOptions: readonly number[];
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
}) {
  const { pagination, visibleRange, pageSize, pageSizeOptions, setPage, setPageSize } = props;
  const sizes = [...new Set([...pageSizeOptions, pageSize])].sort((a, b) => a - b);
  const step = (label: string, symbol: string, enabled: boolean, page: number) => (
    <ActionIcon variant="default" aria-label={label} disabled={!enabled} onClick={() => setPage(page)}>
      {symbol}
    </ActionIcon>
  );
  return (
    <Group justify="space-between" gap="sm" role="navigation" aria-label={zh.table.pagination}>
      <Text size="sm">{zh.table.range(visibleRange.from, visibleRange.to, pagination.totalCount)}</Text>
      <Group gap={6}>
        <NativeSelect
          size="xs"
          aria-label={zh.table.pageSize}
          value={String(pageSize)}
          data={sizes.map(String)}
          onChange={(event) => setPageSize(Number(event.currentTarget.value))}
        />
        {step(zh.table.firstPage, '«', pagination.hasPreviousPage, 1)}
        {step(zh.table.previousPage, '‹', pagination.hasPreviousPage, pagination.currentPage - 1)}
        <Text size="sm">{zh.table.page(pagination.currentPage, pagination.totalPages)}</Text>
        {step(zh.table.nextPage, '›', pagination.hasNextPage, pagination.currentPage + 1)}
        {step(zh.table.lastPage, '»', pagination.hasNextPage, pagination.totalPages)}
        <Tooltip label={zh.table.comingSoon}>
          <div>
            <TextInput size="xs" w={64} disabled aria-label={zh.table.jumpTo} placeholder={zh.table.jumpTo} />
          </div>
        </Tooltip>
      </Group>
    </Group>
  );
}
