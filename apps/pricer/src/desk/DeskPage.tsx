import { Alert, Button, Card, Collapse, Group, Loader, NativeSelect, Stack, Text, useMediaQuery } from '@pfp/mantine';
import {
  beijingDay,
  DEADLINE_WARNING_DAYS,
  formatDateTime,
  formatLots,
  formatPrice,
  instrumentShort,
  zh,
} from '@pfp/i18n';
import { IconChevronDown, IconChevronUp, IconRefresh, notify } from '@pfp/ui';
import { serverMessage } from '@pfp/api-client';
import {
  tradingDaysUntil,
  type ConditionalRow,
  type CreateConditionalInput,
  type OrderRow,
  type PricerContract,
  type SubmitOrderInput,
} from '@pfp/contract';
import { useRef, useState, type ReactNode } from 'react';
import {
  useCancelConditional,
  useCancelOrder,
  useCancellingConditionals,
  useCancellingOrders,
  useContractConditionals,
  useContractLife,
  useCreateConditional,
  useSubmitOrder,
} from '../shared/api';
import { MOBILE_QUERY, TABLET_QUERY } from '../shared/layout';
import { PageTitle } from '../shared/PageTitle';
import { directionLabel } from '../shared/orders/format';
import { useSession } from '../shared/session/useSession';
import { useCustomerConfirmation } from '../shared/confirmation/useCustomerConfirmation';
import { DESK_ORDER_LIMIT } from './constants';
import { DeskList } from './DeskList';
import { ConditionalForm } from './ConditionalForm';
import { ConditionalOrdersTable } from './ConditionalOrdersTable';
import { MyConditionals } from './MyConditionals';
import { OrderForm, OrderTypeSwitch } from './OrderForm';
import type { OrderType } from './orderForm';
import { MarginLine } from './MarginLine';
import { PersonLine } from './PersonLine';
import { OrdersTable } from './OrdersTable';
import { SubmitIntent } from './submitIntent';
import { ConfirmFixSheet } from './ConfirmFixSheet';
import { ContractValueLine } from './ContractValueLine';
import { marginPreview, marginPrice } from './marginPreview';
import { fixPreview, type FixRequest } from './fixPreview';
import { useDeskData } from './useDeskData';
import { useFixConfirmation } from './useFixConfirmation';
import { ContractFacts } from './ContractFacts';
import { AverageSchedule, ContractHistoryList } from './ContractLife';
import { RollDesk } from './RollDesk';

const t = zh.pricer;
const f = zh.fixing;
const k = zh.conditional;

/** The deadline with the trading days left, by the server's clock; highlighted within 3 days. */
export function deadlineFact(
  c: PricerContract,
  serverNow: string | undefined,
): { value: ReactNode; urgent: boolean; banner: number | null } {
  if (!c.fixing_deadline) return { value: f.noDeadline, urgent: false, banner: null };
  const days = tradingDaysUntil(c.instrument_id, c.fixing_deadline, beijingDay(serverNow ?? Date.now()));
  if (days < 0 || c.not_fixable_reason) return { value: c.fixing_deadline, urgent: false, banner: null };
  return {
    // From 3 days before the deadline, a banner with the lots still to fix (issue 30).
    banner: days <= DEADLINE_WARNING_DAYS && c.remaining_quantity > 0 ? days : null,
    value: (
      <>
        {c.fixing_deadline}
        {/* One piece: where the column is narrow it goes to the next line whole, not broken inside the brackets. */}
        <Text span inherit display="inline-block" style={{ whiteSpace: 'nowrap' }} data-testid="deadline-days">
          {f.deadlineDaysNote(f.daysLeft(days))}
        </Text>
      </>
    ),
    urgent: days <= DEADLINE_WARNING_DAYS,
  };
}

/** SPEC §2: the selector shows name, instrument short code, direction and remaining lots. */
export function contractOptionLabel(c: PricerContract): string {
  return [
    c.name,
    instrumentShort(c.instrument_id),
    directionLabel(c.direction),
    t.remainingShort(formatLots(c.remaining_quantity)),
  ].join(' · ');
}

/** SPEC §2 "Trading desk", mobile first (a customer fixes prices from a phone). */
export function DeskPage() {
  const session = useSession();
  const compact = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const tablet = useMediaQuery(TABLET_QUERY, false, { getInitialValueInEffect: false });
  const [selectedId, setSelectedId] = useState<number>();
  const [formOpen, setFormOpen] = useState(false);
  const userId = session?.user.user_id ?? 0;
  const { snapshot, contracts, contract, orders, refreshing, refresh, poll } = useDeskData(userId, selectedId);
  const { mutateAsync: submitOrder } = useSubmitOrder(userId);
  const { mutateAsync: cancelOrder } = useCancelOrder(userId);
  const cancelling = new Set(useCancellingOrders());
  // 条件单 (docs/conditional-orders.md): the form's third type, and the contract's list.
  const [conditionalMode, setConditionalMode] = useState(false);
  const [orderType, setOrderType] = useState<OrderType>('limit');
  const conditionals = useContractConditionals(userId, contract?.id, DESK_ORDER_LIMIT, poll);
  const life = useContractLife(userId, contract?.id, contract?.pricing_mode === 'average');
  const { mutateAsync: createConditional } = useCreateConditional(userId);
  const { mutateAsync: cancelConditional } = useCancelConditional(userId);
  const cancellingConditionals = new Set(useCancellingConditionals());
  // 点价确认单 of a filled order, and the customer's 确认无误 (issue 29).
  const { open: openConfirmation, modal: confirmationModal } = useCustomerConfirmation(userId);
  // One fixing the customer means to make: its key stays the same across retries (issue 14 §2).
  const submitIntent = useRef(new SubmitIntent());

  const market = contract ? snapshot.data?.market_data[contract.instrument_id] : undefined;
  const lastPrice = market?.last_price ?? null;
  // The fix waiting for the customer's 确认点价 (issue 29): nothing is sent before it.
  const { pending, sending, confirmThen, confirmPending, cancelPending } = useFixConfirmation(
    snapshot.data?.confirm_before_fix,
    contract,
    market,
  );

  function submit(order: SubmitOrderInput) {
    const price = order.price ?? 0;
    const request: FixRequest =
      price > 0 ? { kind: 'limit', quantity: order.quantity, price } : { kind: 'market', quantity: order.quantity };
    return confirmThen(request, () => send(order));
  }

  async function send(order: SubmitOrderInput) {
    const intent = submitIntent.current;
    try {
      await submitOrder({ ...order, client_order_id: intent.idFor(order) });
    } catch (error) {
      intent.settled(error);
      notify(serverMessage(error) ?? t.orderSubmitFailed, 'error');
      throw error;
    }
    intent.settled();
    notify(t.orderSubmitted, 'success');
    setFormOpen(false);
  }

  function submitConditional(input: CreateConditionalInput) {
    return confirmThen(
      {
        kind: 'conditional',
        quantity: input.quantity,
        triggerOp: input.trigger_op,
        triggerPrice: input.trigger_price,
        orderPrice: input.order_price ?? 0,
        expiresAt: input.expires_at,
      },
      () => sendConditional(input),
    );
  }

  async function sendConditional(input: CreateConditionalInput) {
    try {
      await createConditional(input);
    } catch (error) {
      notify(serverMessage(error) ?? t.orderSubmitFailed, 'error');
      throw error;
    }
    notify(k.created, 'success');
    setFormOpen(false);
  }

  async function cancelCondition(row: ConditionalRow) {
    try {
      await cancelConditional(row.id);
      notify(k.cancelled, 'success');
    } catch (error) {
      notify(serverMessage(error) ?? t.cancelFailed, 'error');
    }
  }

  async function cancel(order: OrderRow) {
    try {
      await cancelOrder(order.id);
      notify(t.cancelSubmitted, 'success');
    } catch (error) {
      notify(serverMessage(error) ?? t.cancelFailed, 'error');
    }
  }

  const refreshButton = (
    <Button
      variant="default"
      size="sm"
      leftSection={refreshing ? <Loader size={14} /> : <IconRefresh size={16} />}
      onClick={() => void refresh()}
      disabled={refreshing || snapshot.isPending}
    >
      {refreshing ? t.refreshing : t.refresh}
    </Button>
  );

  let content;
  if (snapshot.isPending) {
    content = (
      <Group justify="center" py="xl">
        <Loader />
      </Group>
    );
  } else if (!contract) {
    content = snapshot.isError ? (
      <Alert color="red" role="alert">
        {t.orderDataLoadFailed}
      </Alert>
    ) : (
      <Alert color="gray">{t.noContracts}</Alert>
    );
  } else {
    const orderList = orders.data?.items ?? [];
    const notFixable = contract.not_fixable_reason ?? null;
    const deadline = deadlineFact(contract, snapshot.data?.timestamp);
    const total = orders.data?.total_count ?? 0;
    content = (
      <>
        <Card withBorder radius="md" p={compact ? 'sm' : 'md'}>
          <Stack gap="sm">
            <NativeSelect
              label={t.contract}
              value={String(contract.id)}
              onChange={(e) => setSelectedId(Number(e.currentTarget.value))}
              data={contracts.map((c) => ({ value: String(c.id), label: contractOptionLabel(c) }))}
            />
            <ContractFacts contract={contract} deadline={deadline} />
            <ContractValueLine contract={contract} lastPrice={lastPrice} />
            {deadline.banner !== null ? (
              <Alert color="orange" title={f.deadlineBannerTitle} role="status" data-testid="deadline-banner">
                {f.deadlineBanner(contract.fixing_deadline!, deadline.banner, contract.remaining_quantity)}
              </Alert>
            ) : null}
            {notFixable ? (
              <Alert color="orange" title={f.notFixableTitle} role="status" data-testid="not-fixable">
                {f.notFixable(notFixable)}
                {contract.status === 'paused' ? ` ${f.pausedNote}` : null}
              </Alert>
            ) : null}
            <Group justify="space-between" align="center" gap="xs">
              <Text size="sm" data-testid="reference-price">
                {t.referencePrice}：
                <Text span fw={700} size="md">
                  {lastPrice !== null ? formatPrice(lastPrice) : t.noQuote}
                </Text>
                {snapshot.data ? (
                  <Text span size="xs" c="dimmed" ml={6} style={{ whiteSpace: 'nowrap' }}>
                    {t.referencePriceAt(formatDateTime(snapshot.data.timestamp, true))}
                  </Text>
                ) : null}
              </Text>
              <Text size="sm" data-testid="indicative-fixed-price" title={f.indicativeHint}>
                {f.indicativeFixedPrice}：
                <Text span fw={700} size="md">
                  {lastPrice !== null ? formatPrice(lastPrice + (contract.basis ?? 0)) : t.noQuote}
                </Text>
                {lastPrice !== null && contract.unit ? (
                  <Text span size="sm" fw={600}>
                    {zh.confirmFix.perUnit(contract.unit)}
                  </Text>
                ) : null}
                <Text span size="xs" c="dimmed" ml={6}>
                  {f.indicativeHint}
                </Text>
              </Text>
              <Button
                onClick={() => setFormOpen((o) => !o)}
                disabled={notFixable !== null && !formOpen}
                aria-expanded={formOpen}
                aria-controls="pricer-order-form"
                rightSection={formOpen ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                variant={formOpen ? 'default' : 'filled'}
                fullWidth={compact}
                size={compact ? 'md' : 'sm'}
              >
                {formOpen ? t.collapse : t.fixPrice}
              </Button>
            </Group>
            <Collapse expanded={formOpen && notFixable === null} id="pricer-order-form">
              <Card withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
                {conditionalMode ? (
                  <ConditionalForm
                    key={contract.id}
                    contract={contract}
                    onSubmit={submitConditional}
                    typeSwitch={
                      <OrderTypeSwitch
                        value="conditional"
                        withConditional
                        onChange={(type) => {
                          if (type === 'conditional') return;
                          setOrderType(type);
                          setConditionalMode(false);
                        }}
                      />
                    }
                  />
                ) : (
                  <OrderForm
                    key={contract.id}
                    contract={contract}
                    referencePrice={lastPrice}
                    market={market}
                    onSubmit={submit}
                    initialType={orderType}
                    onConditional={() => setConditionalMode(true)}
                    account={snapshot.data?.account}
                  />
                )}
              </Card>
            </Collapse>
          </Stack>
        </Card>

        <ConfirmFixSheet
          request={pending?.request ?? null}
          preview={pending ? fixPreview(contract, market, pending.request) : null}
          margin={
            pending
              ? marginPreview(
                  contract,
                  snapshot.data?.account,
                  pending.request.quantity,
                  marginPrice(pending.request, market?.last_price),
                )
              : null
          }
          contract={contract}
          compact={compact}
          busy={sending}
          onConfirm={() => void confirmPending()}
          onCancel={cancelPending}
        />

        <DeskList title={t.ordersTitle} subtitle={t.ordersOfContract(contract.name)} total={total} compact={compact}>
          <OrdersTable
            orders={orderList}
            loading={orders.isPending}
            layout={compact ? 'phone' : tablet ? 'tablet' : 'wide'}
            cancelling={cancelling}
            onCancel={(o) => void cancel(o)}
            onConfirmation={(o) => openConfirmation(o.id)}
          />
        </DeskList>

        {contract.pricing_mode === 'average' && life.schedule.data ? (
          <DeskList
            title={zh.lifecycle.ui.detailDialog.schedule}
            subtitle={contract.name}
            total={0}
            compact={compact}
            testId="desk-average-schedule"
          >
            <AverageSchedule schedule={life.schedule.data} />
          </DeskList>
        ) : null}

        <DeskList
          title={k.title}
          subtitle={k.listTitle(contract.name)}
          total={conditionals.data?.total_count ?? 0}
          compact={compact}
          testId="conditional-orders"
        >
          <ConditionalOrdersTable
            rows={conditionals.data?.items ?? []}
            loading={conditionals.isPending}
            compact={compact}
            cancelling={cancellingConditionals}
            onCancel={(row) => void cancelCondition(row)}
          />
        </DeskList>

        <RollDesk userId={userId} contract={contract} compact={compact} />
        {life.history.data ? (
          <DeskList
            title={zh.lifecycle.ui.detailDialog.history}
            subtitle={contract.name}
            total={0}
            compact={compact}
            testId="desk-contract-history"
          >
            <ContractHistoryList history={life.history.data} />
          </DeskList>
        ) : null}
        <MyConditionals userId={userId} compact={compact} />
      </>
    );
  }

  return (
    <Stack gap="sm">
      <PageTitle title={t.tradingDesk} subtitle={compact ? undefined : t.deskSubtitle} align="center">
        {refreshButton}
      </PageTitle>
      <PersonLine person={snapshot.data?.person} />
      <MarginLine account={snapshot.data?.account} />
      {content}
      {confirmationModal}
    </Stack>
  );
}
