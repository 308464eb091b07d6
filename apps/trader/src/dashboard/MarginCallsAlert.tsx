import { Alert, Anchor, Group, Text } from '@pfp/mantine';
import { formatNumber, zh } from '@pfp/i18n';
import { Link } from '@pfp/router';
import { usePricerAccounts } from '../shared/api';
import { TONE } from '../shared/tones';

const t = zh.margin.dashboard;

/** The customers in a margin call (docs/margin.md), largest first; nothing while there is none. */
export function MarginCallsAlert() {
  const accounts = usePricerAccounts();
  const calls = accounts.data?.items.filter((a) => a.margin_call) ?? [];
  if (!calls.length) return null;
  return (
    <Alert color={TONE.danger} variant="light" role="alert" title={t.title(calls.length)} data-testid="margin-calls">
      <Group gap="md">
        {calls.map((a) => (
          <Text key={a.pricer_id} size="sm">
            {a.pricer_name} {t.amount(formatNumber(a.call_amount, 2))}
          </Text>
        ))}
        {/* The alert's own dark red, underlined: Mantine's link blue is under 4.5:1 on the red tint. */}
        <Anchor component={Link} to="/trader/margin" size="sm" c={TONE.danger} fw={600} underline="always">
          {t.open}
        </Anchor>
      </Group>
    </Alert>
  );
}
