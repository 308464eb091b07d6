import { Alert, Button, Card, Group, Loader, Stack, Text } from '@pfp/mantine';
import type { OrderRow } from '@pfp/contract';
import { DataTable, filterConfigsOf } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { notify, SectionHeading, useConfirmationModal } from '@pfp/ui';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { errorText, useCancelOrder, useCancellingOrders, useConfirmationLoader, useOrdersTable } from '../shared/api';
import { ORDER_ACTIONS_WIDTH, ORDER_COLUMNS } from './orderColumns';
import { TONE } from '../shared/tones';

const t = zh.trader.orders;

/** SPEC "Trader dashboard": 20 per page, id descending (refreshed every 10 s by the data layer). */
export const ORDERS_PAGE_SIZE = 20;

export const isCancellable = (order: Pick<OrderRow, 'status'>) =>
  order.status === 'PENDING' || order.status === 'ALIVE';

/** The live order stream with the cancel action (SPEC §4: PENDING or ALIVE). */
export function OrdersTable() {
  const cancelOrder = useCancelOrder();
  const cancelling = useCancellingOrders();
  const [answered, setAnswered] = useState(false);
  const { open: openConfirmation, modal: confirmationModal } = useConfirmationModal(useConfirmationLoader(), errorText);

  const filterConfigs = useMemo(() => filterConfigsOf(ORDER_COLUMNS), []);
  const table = useOrdersTable({
    filterConfigs,
    initialPageSize: ORDERS_PAGE_SIZE,
    initialSorting: [{ field: 'id', ascending: false }],
  });
  // Adjusting state while rendering (not in an effect): the first answer ends the "connecting" state.
  if (!answered && !table.loading) setAnswered(true);

  const { refetch } = table;
  const { mutateAsync: cancelAsync } = cancelOrder;
  const cancel = useCallback(
    async (order: OrderRow) => {
      try {
        await cancelAsync(order.id);
        notify(t.cancelSubmitted, 'success');
      } catch (err) {
        notify(t.cancelFailed(errorText(err)), 'error');
      }
    },
    [cancelAsync],
  );

  const renderRowActions = useCallback(
    (order: OrderRow) => {
      const confirm =
        Number(order.volume_traded) > 0 ? (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.info}
            onClick={() => openConfirmation(order.id)}
            aria-label={zh.fixing.confirmation.openFor(order.id)}
            data-testid={`confirmation-${order.id}`}
          >
            {zh.fixing.confirmation.open}
          </Button>
        ) : null;
      if (!isCancellable(order)) return confirm;
      const busy = cancelling.includes(order.id);
      return (
        <>
          {confirm}
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
        </>
      );
    },
    [cancel, cancelling, openConfirmation],
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
        <SectionHeading title={t.title} description={t.description} />
        {placeholder}
      </Card>
    );
  }

  return (
    <div data-testid="orders-card">
      <DataTable<OrderRow>
        controller={table}
        columns={ORDER_COLUMNS}
        title={t.title}
        description={t.description}
        ariaLabel={t.title}
        showStats
        renderRowActions={renderRowActions}
        actionsColumnWidth={ORDER_ACTIONS_WIDTH}
      />
      {confirmationModal}
    </div>
  );
}
