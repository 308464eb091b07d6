import { Card, Text } from '@mantine/core';

/** Header card of a console page: what it shows, until its feature lands. */
export function PageIntro({ subtitle, body }: { subtitle: string; body?: string }) {
  return (
    <Card withBorder>
      <Text c="dimmed">{subtitle}</Text>
      {body && <Text mt="sm">{body}</Text>}
    </Card>
  );
}
