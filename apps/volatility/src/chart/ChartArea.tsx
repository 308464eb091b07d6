import { Button, Center, Loader, Stack, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import type { CurveFeed } from '../shared/curves/curveFeed';

/** echarts is the biggest part of the app: fetched when a future is chosen, not on first paint. */
export const loadChart = () => import('./VolatilityChart');
const VolatilityChart = lazy(loadChart);

const t = zh.volatility;

function StatePanel({ children, status }: { children: ReactNode; status: string }) {
  return (
    <Center h="100%" data-testid="chart-state" data-status={status}>
      <Stack align="center" gap="sm">
        {children}
      </Stack>
    </Center>
  );
}

function Loading() {
  return (
    <StatePanel status="loading">
      <Loader />
      <Text c="dimmed" role="status">
        {t.loading}
      </Text>
    </StatePanel>
  );
}

/**
 * SPEC §4 chart states: loading, error, empty, data, each filling its container. Subscribes to the
 * feed itself, so a push re-renders the chart and not the top bar.
 */
export function ChartArea({ feed }: { feed: CurveFeed }) {
  const snapshot = useSyncExternalStore(feed.subscribe, feed.getSnapshot);
  switch (snapshot.status) {
    case 'empty':
      return (
        <StatePanel status="empty">
          <Text c="dimmed">{t.empty}</Text>
        </StatePanel>
      );
    case 'loading':
      return <Loading />;
    case 'error':
      return (
        <StatePanel status="error">
          <Text c="red" role="alert">
            {t.error(snapshot.message)}
          </Text>
          <Button variant="light" size="xs" onClick={() => feed.retry()}>
            {t.retry}
          </Button>
        </StatePanel>
      );
    case 'data': {
      const curves = feed.store.curvesInOrder();
      return (
        <div style={{ position: 'relative', height: '100%' }} data-testid="chart-state" data-status="data">
          <Suspense fallback={<Loading />}>
            <VolatilityChart curves={curves} selectedLabels={feed.store.selectedLabels()} />
          </Suspense>
          {curves.every((c) => c.data.length === 0) && (
            <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
              <Text c="dimmed">{t.noPoints}</Text>
            </Center>
          )}
        </div>
      );
    }
  }
}
