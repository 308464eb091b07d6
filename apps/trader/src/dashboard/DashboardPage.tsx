import { Button } from '@pfp/mantine';
import { formatNumber, formatPercent, formatPrice, zh } from '@pfp/i18n';
import { IconRefresh, notify } from '@pfp/ui';
import { useState } from 'react';
import { errorText, useOrderStats, useRefreshOrders, useWaitingConditionals } from '../shared/api';
import { PageLayout, figure, type Stat } from '../shared/PageLayout';
import { computeOrderStats } from './orderStats';
import { MarginCallsAlert } from './MarginCallsAlert';
import { Banners, CalendarNotice } from './CalendarNotice';
import { OrdersTable } from './OrdersTable';
import { ExpiringContracts } from './ExpiringContracts';

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
  const items: Stat[] = [
    { testId: 'stat-total', label: t.stats.total, value: figure(s, (s) => formatNumber(s.total)) },
    { testId: 'stat-success-rate', label: t.stats.successRate, value: figure(s, (s) => formatPercent(s.successRate)) },
    { testId: 'stat-active', label: t.stats.active, value: figure(s, (s) => formatNumber(s.active)) },
    { testId: 'stat-finished', label: t.stats.finished, value: figure(s, (s) => formatNumber(s.finished)) },
    // The amount only once there is one.
    ...(s && s.amount > 0 ? [{ testId: 'stat-amount', label: t.stats.amount, value: formatPrice(s.amount) }] : []),
    {
      testId: 'stat-conditional-waiting',
      label: zh.conditional.dashboardWaiting,
      value: figure(waiting.data, formatNumber),
    },
  ];
  return (
    <PageLayout
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
      error={stats.isError ? t.statsFailed(errorText(stats.error)) : undefined}
      banner={
        <Banners>
          <CalendarNotice />
          <MarginCallsAlert />
        </Banners>
      }
      stats={{ label: t.stats.label, items }}
    >
      <ExpiringContracts />
      <OrdersTable />
    </PageLayout>
  );
}
