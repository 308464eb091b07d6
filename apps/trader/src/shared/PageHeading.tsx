import { Group, Text, Title } from '@pfp/mantine';
import type { ReactNode } from 'react';

/**
 * A page's lead under the shell's header: an optional section title (the header already names the
 * page), the subtitle and the page's actions.
 */
export function PageHeading({ title, subtitle, actions }: { title?: string; subtitle: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <div>
        {title ? (
          <Title order={2} size="h3">
            {title}
          </Title>
        ) : null}
        <Text c="gray.7" size={title ? 'sm' : 'md'}>
          {subtitle}
        </Text>
      </div>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}
