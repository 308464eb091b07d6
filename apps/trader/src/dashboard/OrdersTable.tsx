import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@pfp/mantine';
import { DataTable, filterConfigsOf, useServerTable, type FetchPage } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useImperativeHandle, useMemo, useState, type ReactNode, type Ref } from 'react';
import { errorText, queryKeys, useApi, type Order } from '../api';
import { ORDER_COLUMNS } from './orderColumns';
import { createRefreshTracker } from './refreshTracker';
import { TONE } from '../shared/tones';

const t = zh.trader.orders;

/** SPEC "Trader dashboard": 20 per page, id descending, refreshed every 10 s. */
export const ORDERS_PAGE_SIZE = 20;
export const ORDERS_REFRESH_MS = 10_000;

export const isCancellable = (order: Pick<Order, 'status'>) => order.status === 'PENDING' || order.status === 'ALIVE';

export interface OrdersTableHandle {
  /** Reloads the current page; settles when that load does. */
  refresh(): Promise<void>;
}

/** The live order stream with the cancel action (SPEC §4: PENDING or ALIVE). */
export function OrdersTable({ ref }: { ref?: Ref<OrdersTableHandle> }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [tracker] = useState(createRefreshTracker);
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(() => new Set());
  const [answered, setAnswered] = useState(false);

  const fetchPage = useCallback<FetchPage<Order>>(
    (params, signal) => tracker.track(() => api.orders(params, signal)),
    [api, tracker],
  );

  const filterConfigs = useMemo(() => filterConfigsOf(ORDER_COLUMNS), []);
  const table = useServerTable<Order>({
    fetchPage,
    filterConfigs,
    initialPageSize: ORDERS_PAGE_SIZE,
    initialSorting: [{ field: 'id', ascending: false }],
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
  // Adjusting state while rendering (not in an effect): the first answer ends the "connecting" state.
  if (!answered && !table.loading) setAnswered(true);

  const { refetch } = table;
  useImperativeHandle(ref, () => ({ refresh: () => tracker.next(refetch) }), [tracker, refetch]);

  const cancel = useCallback(
    async (order: Order) => {
      setCancelling((previous) => new Set(previous).add(order.id));
      try {
        await api.cancelOrder(order.id);
        notify(t.cancelSubmitted, 'success');
      } catch (err) {
        notify(t.cancelFailed(errorText(err)), 'error');
      } finally {
        setCancelling((previous) => {
          const next = new Set(previous);
          next.delete(order.id);
          return next;
        });
        refetch();
        void queryClient.invalidateQueries({ queryKey: queryKeys.orderStats });
      }
    },
    [api, queryClient, refetch],
  );

  const renderRowActions = useCallback(
    (order: Order) => {
      if (!isCancellable(order)) return null;
      const busy = cancelling.has(order.id);
      return (
        <Button
          size="compact-xs"
          color={TONE.danger}
          variant="outline"
          disabled={busy}
          onClick={() => void cancel(order)}
          aria-label={busy ? t.cancelling : `${t.cancel} ${order.id}`}
          data-testid={`cancel-order-${order.id}`}
        >
          {busy ? t.cancelling : t.cancel}
        </Button>
      );
    },
    [cancel, cancelling],
  );

  const filtered = table.filterExpression !== '' || table.search.trim() !== '';
  let placeholder: ReactNode = null;
  if (!answered) {
    placeholder = (
      <Group justify="center" gap="xs" py="xl" role="status" data-testid="orders-connecting">
        <Loader size="sm" />
        <Text c="gray.7">{t.connecting}</Text>
      </Group>
    );
  } else if (table.error && table.rows.length === 0) {
    placeholder = (
      <Stack align="center" gap="sm" py="lg" data-testid="orders-error">
        <Alert color={TONE.danger} variant="light" role="alert" title={t.loadFailed} w="100%">
          {errorText(table.error)}
        </Alert>
        <Button variant="default" onClick={refetch}>
          {zh.trader.common.refresh}
        </Button>
      </Stack>
    );
  } else if (!table.error && table.totalCount === 0 && !filtered) {
    placeholder = (
      <Text c="gray.7" ta="center" py="xl" data-testid="orders-empty">
        {t.empty}
      </Text>
    );
  }

  if (placeholder !== null) {
    return (
      <Card withBorder padding="md" radius="md" data-testid="orders-card">
        <Title order={3} size="h4">
          {t.title}
        </Title>
        <Text size="sm" c="gray.7">
          {t.description}
        </Text>
        {placeholder}
      </Card>
    );
  }

  return (
    <div data-testid="orders-card">
      <DataTable<Order>
        controller={table}
        columns={ORDER_COLUMNS}
        title={t.title}
        description={t.description}
        ariaLabel={t.title}
        showStats
        renderRowActions={renderRowActions}
      />
    </div>
  );
}
