import { Alert, Button, SimpleGrid, Stack } from '@pfp/mantine';
import { formatNumber, formatPercent, formatPrice, zh } from '@pfp/i18n';
import { IconRefresh, notify } from '@pfp/ui';
import { useState } from 'react';
import { errorText, useOrderStats, useRefreshOrders, useWaitingConditionals } from '../shared/api';
import { PageHeading } from '../shared/PageHeading';
import { StatCard } from '../shared/StatCard';
import { computeOrderStats } from './orderStats';
import { OrdersTable } from './OrdersTable';
import { ExpiringContracts } from './ExpiringContracts';
import { TONE } from '../shared/tones';

const t = zh.trader.dashboard;

export function DashboardPage() {
  const [refreshing, setRefreshing] = useState(false);
  const stats = useOrderStats(computeOrderStats);
  const refreshOrders = useRefreshOrders();
  // docs/conditional-orders.md: how many conditional orders wait for the market.
  const waiting = useWaitingConditionals();

  const refresh = async () => {
    setRefreshing(true);
    try {
      await refreshOrders();
      notify(zh.trader.common.refreshed, 'success', 2000);
    } catch (err) {
      notify(zh.trader.common.refreshFailed(errorText(err)), 'error', 3000);
    } finally {
      setRefreshing(false);
    }
  };

  const s = stats.data;
  const value = (text: string | undefined) => text ?? '-';
  return (
    <Stack gap="md">
      <PageHeading
        title={t.title}
        subtitle={t.subtitle}
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={refreshing}
            onClick={() => void refresh()}
            data-testid="dashboard-refresh"
          >
            {zh.trader.common.refresh}
          </Button>
        }
      />
      {stats.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.statsFailed(errorText(stats.error))}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 2, md: s && s.amount > 0 ? 6 : 5 }} spacing="md" aria-label={t.stats.label}>
        <StatCard testId="stat-total" label={t.stats.total} value={value(s && formatNumber(s.total))} />
        <StatCard
          testId="stat-success-rate"
          label={t.stats.successRate}
          value={value(s && formatPercent(s.successRate))}
        />
        <StatCard testId="stat-active" label={t.stats.active} value={value(s && formatNumber(s.active))} />
        <StatCard testId="stat-finished" label={t.stats.finished} value={value(s && formatNumber(s.finished))} />
        {s && s.amount > 0 ? (
          <StatCard testId="stat-amount" label={t.stats.amount} value={formatPrice(s.amount)} />
        ) : null}
        <StatCard
          testId="stat-conditional-waiting"
          label={zh.conditional.dashboardWaiting}
          value={value(waiting.data !== undefined ? formatNumber(waiting.data) : undefined)}
        />
      </SimpleGrid>
      <ExpiringContracts />
      <OrdersTable />
    </Stack>
  );
}
