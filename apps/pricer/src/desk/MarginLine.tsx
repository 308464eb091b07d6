import { Alert, Group, Text } from '@pfp/mantine';
import { formatNumber, zh } from '@pfp/i18n';
import type { PricerAccount } from '@pfp/contract';

const t = zh.margin.desk;
const yuan = (n: number) => `¥${formatNumber(n, 2)}`;

/**
 * The customer's margin on the desk (docs/margin.md), from the snapshot: available, held and floating
 * P/L, and a banner with the amount to add while in a margin call. Nothing for an account never used.
 */
export function MarginLine({ account }: { account: PricerAccount | undefined }) {
  if (!account) return null;
  const used = account.balance || account.credit_line || account.margin_required || account.floating_pnl;
  if (!used && !account.margin_call) return null;
  return (
    <>
      {account.margin_call ? (
        <Alert color="red" role="alert" data-testid="margin-call-banner">
          {t.callBanner(formatNumber(account.call_amount, 2))}
        </Alert>
      ) : null}
      <Group gap="lg" data-testid="margin-line">
        <Text size="sm">
          {t.available}{' '}
          <Text span fw={700} c={account.available < 0 ? 'red.8' : undefined} data-testid="margin-available">
            {yuan(account.available)}
          </Text>
        </Text>
        <Text size="sm" c="gray.7">
          {t.margin} {yuan(account.margin_required)}
        </Text>
        <Text size="sm" c={account.floating_pnl < 0 ? 'red.8' : 'gray.7'}>
          {t.pnl} {yuan(account.floating_pnl)}
        </Text>
      </Group>
    </>
  );
}
