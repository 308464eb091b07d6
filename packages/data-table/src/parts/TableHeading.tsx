import type { ReactNode } from 'react';
import { Button, Group, Loader, Text, Title } from '@pfp/mantine';
import { zh } from '@pfp/i18n';

/** 卡片标题栏：标题、说明、加载指示与刷新按钮。 */
export function TableHeading(props: {
  title: ReactNode;
  description: ReactNode;
  loading: boolean;
  reloading: boolean;
  onRefresh: (() => void) | undefined;
}) {
  const { title, description, loading, reloading, onRefresh } = props;
  return (
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
        {reloading ? <Loader size="xs" aria-label={zh.table.loading} /> : null}
        {onRefresh ? (
          <Button variant="default" size="xs" onClick={onRefresh} disabled={loading} aria-label={zh.table.refresh}>
            {zh.table.refresh}
          </Button>
        ) : null}
      </Group>
    </Group>
  );
}
