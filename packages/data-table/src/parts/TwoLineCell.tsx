import { Stack, Text } from '@pfp/mantine';

/** Each line whole: a date must not break at its hyphen on a phone (the table scrolls instead). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** 紧凑的两行单元格：上面是主值，下面是较小的次要信息（日期与时间、合同与合约……）。 */
export function TwoLineCell({ top, bottom }: { top: string; bottom: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" lh={1.35} style={NO_WRAP}>
        {top}
      </Text>
      <Text size="xs" c="dimmed" lh={1.35} style={NO_WRAP}>
        {bottom}
      </Text>
    </Stack>
  );
}
