import { Card, Stack, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { SectionHeading } from '@pfp/ui';
import type { ReactNode } from 'react';
import { DESK_ORDER_LIMIT } from './constants';

/** A list of the desk under its title and the contract it shows; past the limit, a note that only the latest are. */
export function DeskList(props: {
  title: string;
  subtitle: string;
  /** How many there are in all. */
  total: number;
  compact: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" p={props.compact ? 'xs' : 'md'} data-testid={props.testId}>
      <Stack gap="xs">
        <SectionHeading title={props.title} description={props.subtitle} small />
        {props.children}
        {props.total > DESK_ORDER_LIMIT ? (
          <Text size="xs" c="dimmed" ta="center">
            {zh.pricer.latestOnly(DESK_ORDER_LIMIT)}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
