import { Alert, Button, Drawer, Group, Loader, Modal, Stack, Table, Text } from '@pfp/mantine';
import type { PricerContract } from '@pfp/contract';
import { formatBasis, formatDateTime, formatLots, formatNumber, formatPrice, instrumentShort, zh } from '@pfp/i18n';
import { Fragment, type KeyboardEvent, type ReactNode } from 'react';
import type { FixPreview, FixRequest } from './fixPreview';

const c = zh.confirmFix;
const m = zh.margin.desk;

export interface ConfirmFixSheetProps {
  /** What is being confirmed; the sheet is closed without one. */
  request: FixRequest | null;
  preview: FixPreview | null;
  /** The margin the fix will hold and the available after it (docs/margin.md); null when it holds none. */
  margin?: { margin: number; availableAfter: number } | null;
  /** margin_rate: the contract's 保证金比例 (issue 41), shown when known. */
  contract: Pick<PricerContract, 'name' | 'instrument_id' | 'instrument_name'> & { margin_rate?: number };
  /** Phone: a sheet from the bottom; wider: a dialog. */
  compact: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

const price = (v: number | null) => (v === null ? '-' : formatPrice(v));

/** A goods price per unit: '¥3,155.00 元/吨', or the price alone while the unit is not known. */
function perUnit(v: number | null, unit: string | null): string {
  if (v === null) return c.noQuote;
  return unit ? c.pricePer(formatNumber(v, 2), unit) : formatPrice(v);
}

function Line({ label, value, testId, strong }: { label: string; value: ReactNode; testId: string; strong?: boolean }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w="34%" fw={400} c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Table.Th>
      <Table.Td data-testid={testId} fw={strong ? 700 : 500}>
        {value}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The confirmation shown before a fix (market, limit or 条件单) is sent: nothing goes to the server
 * before 确认点价 (or Enter); 取消 (or Escape) sends nothing and leaves the form as it was.
 */
export function ConfirmFixSheet({
  request,
  preview,
  margin = null,
  contract,
  compact,
  busy,
  onConfirm,
  onCancel,
}: ConfirmFixSheetProps) {
  const opened = request !== null && preview !== null;
  const conditional = request?.kind === 'conditional';
  const title = conditional ? c.conditionalTitle : c.title;

  let body: ReactNode = null;
  if (request && preview) {
    const lots = formatLots(preview.quantity);
    const quantity =
      preview.units !== null && preview.unit
        ? c.lotsWithUnits(lots, formatNumber(preview.units), preview.unit)
        : preview.multiplier !== null
          ? c.lotsWithMultiplier(lots, formatNumber(preview.multiplier))
          : lots;
    const orderKind =
      request.kind === 'limit'
        ? c.limit(formatPrice(request.price))
        : request.kind === 'conditional' && request.orderPrice > 0
          ? c.limit(formatPrice(request.orderPrice))
          : c.market;
    const reference =
      preview.reference !== null
        ? `${formatPrice(preview.reference)}（${c.referenceOf[preview.referenceSource]}）`
        : c.noQuote;
    body = (
      <Stack gap="sm">
        <Table verticalSpacing={6} horizontalSpacing="xs" aria-label={title}>
          <Table.Tbody>
            <Line label={c.contract} value={contract.name} testId="confirm-contract" />
            <Line
              label={c.instrument}
              value={`${contract.instrument_name}（${instrumentShort(contract.instrument_id)}）`}
              testId="confirm-instrument"
            />
            <Line
              label={c.side}
              value={
                <Text span inherit c={preview.side === 'SELL' ? 'teal.9' : 'red.9'}>
                  {c.sideText[preview.side]}
                </Text>
              }
              testId="confirm-side"
              strong
            />
            <Line label={c.lots} value={quantity} testId="confirm-lots" strong />
            {request.kind === 'conditional' ? (
              <>
                <Line
                  label={c.trigger}
                  value={c.triggerText(
                    zh.conditional.opShort[request.triggerOp] ?? request.triggerOp,
                    formatPrice(request.triggerPrice),
                  )}
                  testId="confirm-trigger"
                  strong
                />
                <Line label={c.whenTriggered} value={orderKind} testId="confirm-order-kind" />
                <Line
                  label={c.validity}
                  value={request.expiresAt ? formatDateTime(request.expiresAt) : c.validityDefault}
                  testId="confirm-validity"
                />
              </>
            ) : (
              <Line label={c.orderKind} value={orderKind} testId="confirm-order-kind" />
            )}
            <Line
              label={c.futuresQuote}
              value={c
                .quoteLine(price(preview.last), price(preview.bid), price(preview.ask))
                .split(' · ')
                .map((part, i) => (
                  // Each price whole: a narrow screen breaks between them (at the separator), never inside one.
                  <Fragment key={part}>
                    {i > 0 ? ' · ' : ''}
                    <Text span inherit style={{ whiteSpace: 'nowrap' }}>
                      {part}
                    </Text>
                  </Fragment>
                ))}
              testId="confirm-quote"
            />
            <Line label={c.futuresReference} value={reference} testId="confirm-reference" />
            <Line label={c.basis} value={formatBasis(preview.basis)} testId="confirm-basis" />
            <Line
              label={c.goodsPrice}
              value={perUnit(preview.goodsPrice, preview.unit)}
              testId="confirm-goods-price"
              strong
            />
            <Line
              label={c.amount}
              value={preview.amount !== null ? c.yuan(formatNumber(preview.amount, 2)) : c.noQuote}
              testId="confirm-amount"
              strong
            />
            {contract.margin_rate !== undefined ? (
              <Line
                label={zh.marginDefaults.confirm.rate}
                value={
                  contract.margin_rate > 0
                    ? zh.marginDefaults.ratePercent(contract.margin_rate)
                    : zh.marginDefaults.confirm.none
                }
                testId="confirm-margin-rate"
              />
            ) : null}
            {margin ? (
              <>
                <Line label={m.hold} value={c.yuan(formatNumber(margin.margin, 2))} testId="confirm-margin" />
                <Line
                  label={m.availableAfter}
                  value={
                    <Text span inherit c={margin.availableAfter < 0 ? 'red.8' : undefined}>
                      {c.yuan(formatNumber(margin.availableAfter, 2))}
                    </Text>
                  }
                  testId="confirm-available-after"
                />
              </>
            ) : null}
          </Table.Tbody>
        </Table>
        {preview.firesAtOnce && preview.last !== null ? (
          <Alert color="orange" role="alert" data-testid="confirm-fires-at-once" p="xs">
            {c.firesAtOnce(formatPrice(preview.last))}
          </Alert>
        ) : null}
        {preview.marketRisk ? (
          <Alert color="yellow" data-testid="confirm-market-risk" p="xs">
            {c.marketRisk}
          </Alert>
        ) : null}
        <Text size="xs" c="dimmed">
          {c.indicativeNote}
        </Text>
        <Group grow gap="sm">
          <Button variant="default" size="md" onClick={onCancel} disabled={busy}>
            {c.cancel}
          </Button>
          <Button
            size="md"
            onClick={onConfirm}
            disabled={busy}
            data-autofocus
            data-confirm
            leftSection={busy ? <Loader size={14} /> : undefined}
          >
            {busy ? c.sending : conditional ? c.confirmConditional : c.confirm}
          </Button>
        </Group>
        {compact ? null : (
          <Text size="xs" c="dimmed" ta="right">
            {c.keysHint}
          </Text>
        )}
      </Stack>
    );
  }

  // Enter confirms wherever the focus is in the sheet (Escape is the dialog's own close).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || busy || !opened) return;
    // On another button (取消, the close button) Enter is that button's own click.
    if (e.target instanceof HTMLButtonElement && e.target.dataset.confirm === undefined) return;
    e.preventDefault();
    onConfirm();
  };
  const close = () => {
    if (!busy) onCancel();
  };
  const common = {
    opened,
    onClose: close,
    title: <Text fw={700}>{title}</Text>,
    closeOnEscape: !busy,
    closeOnClickOutside: !busy,
    withCloseButton: !busy,
    closeButtonProps: { 'aria-label': c.close },
    trapFocus: true,
    returnFocus: true,
  };
  return compact ? (
    <Drawer {...common} position="bottom" size="auto" onKeyDown={onKeyDown} data-testid="confirm-fix">
      {body}
    </Drawer>
  ) : (
    <Modal {...common} centered size="md" onKeyDown={onKeyDown} data-testid="confirm-fix">
      {body}
    </Modal>
  );
}
