import { Group, Text, Title } from '@pfp/mantine';
import type { ReactNode } from 'react';

/** A page's title, its subtitle (left out on phones by the caller) and, on the right, the page's actions. */
export function PageTitle(props: {
  title: string;
  subtitle?: string | undefined;
  align: 'center' | 'flex-end';
  children: ReactNode;
}) {
  return (
    <Group justify="space-between" align={props.align} wrap="nowrap">
      <div>
        <Title order={2} size="h3">
          {props.title}
        </Title>
        {props.subtitle ? (
          <Text size="sm" c="dimmed">
            {props.subtitle}
          </Text>
        ) : null}
      </div>
      {props.children}
    </Group>
  );
}
