import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, Title, useMediaQuery } from '@pfp/mantine';
import { formatBasis, formatDateTime, formatLotsWithUnits, formatMultiplier, formatNumber, zh } from '@pfp/i18n';
import { useCallback, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Confirmation } from '@pfp/contract';

const t = zh.fixing.confirmation;
const B = zh.averageBasis;

/**
 * Printing shows the confirmation alone on an A4 page: a copy of the document is kept directly under
 * <body> (hidden on screen); in print every other child of <body> (the app, the dialog) is left out,
 * so the page holds nothing but the document, laid out from its top, in a Chinese serif face.
 */
const PRINT_CSS = `
.pfp-print-root { display: none; }
@media print {
  @page { size: A4 portrait; margin: 18mm 16mm; }
  body > *:not(.pfp-print-root) { display: none !important; }
  body > .pfp-print-root { display: block !important; }
  .pfp-print-root, .pfp-print-root * {
    color: #000 !important; background: #fff !important;
    font-family: "Songti SC", "SimSun", "Noto Serif CJK SC", "Source Han Serif SC", serif !important;
  }
  .pfp-print-root table { border-collapse: collapse; width: 100%; }
  .pfp-print-root th, .pfp-print-root td { border: 1px solid #000 !important; padding: 6px 8px; text-align: left; }
}
`;

const money = (n: number | null) => (n === null ? '-' : formatNumber(n, 2));

/** The document itself (also what is printed). */
export /** One label and its value: a row of the document holds two. */
function Field({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Table.Th w="18%" scope="row">
        {label}
      </Table.Th>
      <Table.Td w="32%" data-field={label}>
        {value}
      </Table.Td>
    </>
  );
}

function ConfirmationDocument({
  c,
  printedAt,
  testId,
  narrow,
}: {
  c: Confirmation;
  printedAt?: Date;
  testId?: string;
  /** A phone: one label and its value a row, so that nothing is cut at the screen's edge. */
  narrow?: boolean;
}) {
  const direction = zh.pricer.direction[c.direction] ?? c.direction;
  const rows: [string, string, string, string][] = [
    // The legal identity (客户全称), the login name while the trader has not filled it in (issue 29).
    [t.company, c.company_name, t.customer, c.pricer_full_name || c.pricer_name],
    // 点价人: the 授权点价人 who fixed (docs/authorised-pricers.md); orders before them name none.
    [
      zh.authorisedPricers.fixedBy,
      // A day of a 均价 schedule is fixed by the system: said so, not a bare '-'.
      c.fixed_by || (c.average_basis ? B.confirmation.fixedBySystem : '-'),
      zh.authorisedPricers.orderedAt,
      formatDateTime(c.ordered_at, true),
    ],
    [t.contract, c.contract_name, t.product, c.product_name],
    [
      t.instrument,
      c.instrument_name ? `${c.instrument_name}（${c.instrument_id}）` : c.instrument_id,
      t.direction,
      direction,
    ],
    [t.lots, formatLotsWithUnits(c.lots, c.multiplier, c.unit), t.multiplier, formatMultiplier(c.multiplier, c.unit)],
    [
      c.average_basis === 'settlement' ? B.confirmation.settlementPrice : t.futuresPrice,
      money(c.futures_price),
      t.basis,
      formatBasis(c.basis),
    ],
    [t.fixedPrice, money(c.fixed_price), t.amount, money(c.amount)],
    // A day's 均价点价 says what it averages (issue 43).
    ...(c.average_basis
      ? [
          [B.confirmation.mode, zh.lifecycle.pricingModes.average, B.label, B.confirmation.basis[c.average_basis]] as [
            string,
            string,
            string,
            string,
          ],
        ]
      : []),
    [
      t.orderId,
      String(c.order_id),
      t.ackStatus,
      c.acknowledged_at ? t.acknowledged(formatDateTime(c.acknowledged_at, true)) : t.pending,
    ],
  ];
  return (
    <Stack gap="sm" className="pfp-confirmation" data-testid={testId} lang="zh-CN">
      <Title order={2} ta="center" size="h3">
        {t.title}
      </Title>
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {t.no}：<span data-field="confirmation_no">{c.confirmation_no}</span>
        </Text>
        <Text size="sm">
          {t.time}：{formatDateTime(c.fixed_at, true)}
        </Text>
      </Group>
      <Table withTableBorder withColumnBorders verticalSpacing="xs" aria-label={t.title}>
        <Table.Tbody>
          {narrow
            ? rows.flatMap(([l1, v1, l2, v2]) =>
                [
                  [l1, v1],
                  [l2, v2],
                ].map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w="38%" scope="row">
                      {label}
                    </Table.Th>
                    <Table.Td data-field={label}>{value}</Table.Td>
                  </Table.Tr>
                )),
              )
            : rows.map(([l1, v1, l2, v2]) => (
                <Table.Tr key={l1}>
                  <Field label={l1} value={v1} />
                  <Field label={l2} value={v2} />
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
      <Text size="xs">{c.average_basis === 'settlement' ? B.confirmation.settlementFormula : t.formula}</Text>
      <Text size="sm">{t.statement}</Text>
      <Group justify="space-between" mt="lg" gap="xl">
        <Text size="sm">{t.sealCompany}：____________</Text>
        <Text size="sm">{t.sealCustomer}：____________</Text>
      </Group>
      {printedAt ? (
        <Text size="xs" c="dimmed" ta="right">
          {t.printedAt(formatDateTime(printedAt))}
        </Text>
      ) : null}
    </Stack>
  );
}

export interface PriceConfirmationModalProps {
  opened: boolean;
  onClose: () => void;
  data?: Confirmation | undefined;
  loading: boolean;
  /** The error text to show (the server's Chinese message), if loading failed. */
  error?: string | undefined;
  /** The customer's 确认无误 (issue 29): offered while the confirmation is not yet acknowledged. */
  onAcknowledge?: (() => void) | undefined;
  acknowledging?: boolean | undefined;
}

/** The confirmation in a dialog, with 打印 (the browser's print, A4 via the print stylesheet). */
export function PriceConfirmationModal({
  opened,
  onClose,
  data,
  loading,
  error,
  onAcknowledge,
  acknowledging,
}: PriceConfirmationModalProps) {
  const canAcknowledge = onAcknowledge !== undefined && data !== undefined && !data.acknowledged_at;
  const narrow = useMediaQuery('(max-width: 599.98px)', false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t.title}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': t.close }}
    >
      {loading ? (
        <Group justify="center" py="lg" aria-label={t.loading}>
          <Loader />
        </Group>
      ) : error || !data ? (
        <Alert color="red" role="alert">
          {error ?? t.loadFailed}
        </Alert>
      ) : (
        <Stack gap="md">
          <ConfirmationDocument c={data} testId="confirmation" narrow={narrow} />
          {createPortal(
            <div className="pfp-print-root" data-testid="confirmation-print-copy">
              <style>{PRINT_CSS}</style>
              <ConfirmationDocument c={data} printedAt={new Date()} />
            </div>,
            document.body,
          )}
          {canAcknowledge ? (
            <Text size="sm" c="dimmed">
              {t.acknowledgeHint}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t.close}
            </Button>
            <Button
              variant={canAcknowledge ? 'default' : 'filled'}
              onClick={() => window.print()}
              data-testid="confirmation-print"
            >
              {t.print}
            </Button>
            {canAcknowledge ? (
              <Button
                onClick={onAcknowledge}
                disabled={acknowledging}
                leftSection={acknowledging ? <Loader size={14} /> : undefined}
                data-testid="confirmation-acknowledge"
              >
                {acknowledging ? t.acknowledging : t.acknowledge}
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

interface ModalState {
  opened: boolean;
  loading: boolean;
  data?: Confirmation;
  error?: string;
  acknowledging?: boolean;
}

/**
 * A confirmation dialog for a list of orders: `open(orderId)` loads and shows one. A later open (or a
 * close) wins over an answer still on its way.
 */
export function useConfirmationModal(
  load: (orderId: number) => Promise<Confirmation>,
  describeError: (err: unknown) => string,
  /** The customer's side: 确认无误 acknowledges the confirmation shown and shows it again as answered. */
  acknowledge?: {
    call: (orderId: number) => Promise<Confirmation>;
    /** Told of the outcome (a toast): the error's text, or null on success. */
    onDone: (error: unknown) => void;
  },
) {
  const [state, setState] = useState<ModalState>({ opened: false, loading: false });
  const latest = useRef(0);
  const open = useCallback(
    (orderId: number) => {
      const call = ++latest.current;
      setState({ opened: true, loading: true });
      load(orderId).then(
        (data) => {
          if (latest.current === call) setState({ opened: true, loading: false, data });
        },
        (err: unknown) => {
          if (latest.current === call) setState({ opened: true, loading: false, error: describeError(err) });
        },
      );
    },
    [load, describeError],
  );
  const close = useCallback(() => {
    latest.current++;
    setState({ opened: false, loading: false });
  }, []);
  const shown = state.data?.order_id;
  const onAcknowledge =
    acknowledge && shown !== undefined
      ? () => {
          const call = latest.current;
          setState((s) => ({ ...s, acknowledging: true }));
          acknowledge.call(shown).then(
            (data) => {
              if (latest.current === call) setState({ opened: true, loading: false, data });
              acknowledge.onDone(null);
            },
            (err: unknown) => {
              if (latest.current === call) setState((s) => ({ ...s, acknowledging: false }));
              acknowledge.onDone(err);
            },
          );
        }
      : undefined;
  const modal = <PriceConfirmationModal {...state} onClose={close} onAcknowledge={onAcknowledge} />;
  return { open, modal };
}
