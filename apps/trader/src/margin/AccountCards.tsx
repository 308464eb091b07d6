import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@pfp/mantine';
import { formatNumber, zh } from '@pfp/i18n';
import type { PricerAccount } from '@pfp/contract';
import { TONE } from '../shared/tones';

const t = zh.margin;
const p = zh.phone.margin;
const yuan = (n: number) => formatNumber(n, 2);

type Open = (kind: 'funds' | 'credit' | 'ledger' | 'settle', account: PricerAccount) => void;

/**
 * The accounts on a phone (issue 41): one card a customer, calls first and largest first, each saying
 * who (客户全称), the call's amount and 可用 at a glance; the name opens their account in one tap.
 */
/** `can`: the staff roles' gate (docs/roles.md), as the table's buttons are shown. */
export function AccountCards({
  items,
  open,
  can,
}: {
  items: readonly PricerAccount[];
  open: Open;
  can: (call: 'recordFunds' | 'setCreditLine' | 'settleLots') => boolean;
}) {
  const sorted = [...items].sort(
    (a, b) => Number(b.margin_call) - Number(a.margin_call) || b.call_amount - a.call_amount,
  );
  const calls = items.filter((a) => a.margin_call);
  const total = calls.reduce((s, a) => s + a.call_amount, 0);
  return (
    <Stack gap="sm" aria-label={p.cards} role="list" data-testid="accounts-cards">
      <Alert
        color={calls.length ? TONE.danger : TONE.success}
        variant="light"
        p="xs"
        data-testid="accounts-calls-summary"
      >
        {calls.length ? p.callsSummary(calls.length, yuan(total)) : p.noCalls}
      </Alert>
      {sorted.map((a) => (
        <Card
          key={a.pricer_id}
          withBorder
          radius="md"
          padding="sm"
          role="listitem"
          data-margin-call={a.margin_call || undefined}
          bg={a.margin_call ? 'var(--mantine-color-red-light)' : undefined}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Anchor
              component="button"
              type="button"
              fw={600}
              ta="left"
              onClick={() => open('ledger', a)}
              aria-label={p.openAccount(a.pricer_name)}
              style={{ minHeight: 32 }}
            >
              {a.pricer_name}
            </Anchor>
            {a.margin_call ? (
              <Badge color={TONE.danger} variant="filled" style={{ flexShrink: 0 }}>
                {t.inCall(yuan(a.call_amount))}
              </Badge>
            ) : (
              <Badge color={TONE.success} variant="outline" style={{ flexShrink: 0 }}>
                {t.normal}
              </Badge>
            )}
          </Group>
          <SimpleGrid cols={2} spacing={4} verticalSpacing={2} mt={6}>
            <Figure label={t.columns.available} value={yuan(a.available)} strong danger={a.available < 0} />
            <Figure label={t.columns.margin} value={yuan(a.margin_required)} />
            <Figure label={t.columns.balance} value={yuan(a.balance)} />
            <Figure label={t.columns.pnl} value={yuan(a.floating_pnl)} danger={a.floating_pnl < 0} />
            <Figure label={t.columns.creditLine} value={yuan(a.credit_line)} />
          </SimpleGrid>
          <Group gap={6} mt="xs">
            {can('recordFunds') ? (
              <Button size="xs" variant="light" onClick={() => open('funds', a)}>
                {t.funds}
              </Button>
            ) : null}
            {can('setCreditLine') ? (
              <Button size="xs" variant="default" onClick={() => open('credit', a)}>
                {t.credit}
              </Button>
            ) : null}
            <Button size="xs" variant="subtle" onClick={() => open('ledger', a)}>
              {t.ledger}
            </Button>
            {can('settleLots') ? (
              <Button size="xs" variant="subtle" onClick={() => open('settle', a)}>
                {t.settle}
              </Button>
            ) : null}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function Figure({
  label,
  value,
  strong,
  danger,
}: {
  label: string;
  value: string;
  strong?: boolean;
  danger?: boolean;
}) {
  return (
    <Text size="sm">
      <Text span c="gray.7" size="xs">
        {label}{' '}
      </Text>
      <Text span fw={strong ? 700 : undefined} c={danger ? TONE.danger : undefined}>
        {value}
      </Text>
    </Text>
  );
}
