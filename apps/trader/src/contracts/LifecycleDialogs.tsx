import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Loader,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@pfp/mantine';
import { ContractValueBlock } from './ContractValueBlock';
import { beijingDay, formatBasis, formatDateTime, formatLotsWithUnits, formatNumber, formatPrice, zh } from '@pfp/i18n';
import { AverageScheduleTable, notify } from '@pfp/ui';
import { ROLL_AGREEMENTS, type ContractRow, type RollAgreement, type RollConfirmation } from '@pfp/contract';
import { useState, type ReactNode } from 'react';
import {
  errorText,
  isPendingApproval,
  useContractDetail,
  useExtendDeadline,
  useInstruments,
  useRollContract,
} from '../shared/api';
import { ConsoleModal } from '../shared/ConsoleModal';
import { DialogActions } from '../shared/DialogActions';
import { TONE } from '../shared/tones';
import { unsettledLots } from './SettleContractDialog';
import { TradingDayField } from './TradingDayField';
import { useCan } from '../shared/roles';

const L = zh.lifecycle.ui;
const A = zh.rollApplications.rollDialog;
const yuan = (n: number) => formatNumber(n, 2);
const num = (v: number | string) => (typeof v === 'number' ? v : v === '' || v === '-' ? NaN : Number(v));

interface EffectDialogProps {
  title: string;
  size?: 'md' | 'lg';
  /** The fields. */
  children: ReactNode;
  /** What will happen, once the fields are complete (null until then: nothing to confirm). */
  effect: { testId: string; title: string; items: ReactNode[]; irreversible: string } | null;
  confirmLabel: string;
  run: () => Promise<unknown>;
  texts: { done: string; failed: (reason: string) => string };
  onClose: () => void;
}

/**
 * 转月 and 延期: the fields, then, under them, what the action will do and that it cannot be undone, and
 * one confirm button in the warning colour. Locked while the call runs; a refusal stays in the dialog.
 */
export function EffectDialog({ title, size, children, effect, confirmLabel, run, texts, onClose }: EffectDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      const data = await run();
      // A direct 转月 the approval policy holds (202) has not happened yet: say so (docs/roles.md).
      notify(isPendingApproval(data) ? zh.roles.approvals.submitted(data.request_id) : texts.done, 'success', 3000);
      onClose();
    } catch (err) {
      setError(errorText(err));
      notify(texts.failed(errorText(err)), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConsoleModal onClose={onClose} busy={busy} title={title} size={size}>
      <Stack gap="sm">
        {children}
        {effect ? (
          <Alert color={TONE.warning} variant="light" title={effect.title} data-testid={effect.testId}>
            <List size="sm" spacing={2}>
              {effect.items.map((item, i) => (
                <List.Item key={i}>{item}</List.Item>
              ))}
            </List>
            <Text size="sm" mt={6} fw={600}>
              {effect.irreversible}
            </Text>
          </Alert>
        ) : null}
        {error ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <DialogActions
          backLabel={zh.trader.contracts.statusDialog.cancel}
          onBack={onClose}
          confirmLabel={confirmLabel}
          onConfirm={() => void submit()}
          busy={busy}
          confirmDisabled={!effect}
          confirmColor={TONE.warning}
        />
      </Stack>
    </ConsoleModal>
  );
}

/** The items of an effect list that apply: false and null are left out. */
export const applying = (...items: (ReactNode | false | null)[]) => items.filter((i) => i !== false && i !== null);

/**
 * 转月 (issue 32): the target month, lots, 月差 and fee, then what will happen — lots and units moved,
 * the new basis, what is left on the old contract, the fee — and the confirmation.
 */
export function RollDialog({ contract, onClose }: { contract: ContractRow | null; onClose: () => void }) {
  const R = L.rollDialog;
  const roll = useRollContract();
  const instruments = useInstruments(contract?.product_name ?? '', contract !== null);
  const [to, setTo] = useState<string | null>(null);
  const [lots, setLots] = useState<number | string>(contract?.remaining_quantity ?? '');
  const [spread, setSpread] = useState<number | string>(0);
  const [fee, setFee] = useState<number | string>(0);
  const [deadline, setDeadline] = useState('');
  // Issue 42: a roll entered here was agreed off the platform; how the customer agreed goes on the 转月确认单.
  const [agreedVia, setAgreedVia] = useState<RollAgreement | null>(null);
  const [agreedNote, setAgreedNote] = useState('');
  const [today] = useState(() => beijingDay(Date.now()));
  if (!contract) return null;
  const target = instruments.data?.find((i) => i.symbol === to);
  const q = num(lots);
  const s = num(spread);
  const f = num(fee) || 0;
  const multiplier = target?.volume_multiple ?? contract.multiplier ?? 1;
  const agreed = agreedVia !== null && (agreedVia !== 'other' || agreedNote.trim() !== '');
  const ready = target !== undefined && Number.isInteger(q) && q > 0 && Number.isFinite(s) && agreed;
  return (
    <EffectDialog
      title={R.title(contract.name)}
      size="lg"
      confirmLabel={R.confirm}
      texts={R}
      onClose={onClose}
      run={() =>
        roll.mutateAsync({
          contract_id: contract.id,
          to_instrument_id: to!,
          quantity: q,
          spread: s,
          fee_per_unit: f,
          ...(deadline ? { fixing_deadline: deadline } : {}),
          agreed_via: agreedVia!,
          agreed_note: agreedNote.trim(),
        })
      }
      effect={
        ready
          ? {
              testId: 'roll-effect',
              title: R.effectTitle,
              irreversible: R.irreversible,
              items: applying(
                R.effect(formatLotsWithUnits(q, multiplier, contract.unit), contract.instrument_id, target.symbol),
                R.basis(formatBasis(contract.basis), formatBasis(s), formatBasis(contract.basis + s)),
                R.left(Math.max(0, contract.remaining_quantity - q)),
                q > contract.remaining_quantity && R.held(contract.frozen_quantity),
                f > 0 && R.fee(yuan(f * q * multiplier)),
                A.agreedVia2(zh.rollApplications.agreements[agreedVia!]),
              ),
            }
          : null
      }
    >
      <Select
        label={R.target}
        data={(instruments.data ?? [])
          .filter((i) => i.symbol !== contract.instrument_id)
          .map((i) => ({ value: i.symbol, label: `${i.name}（${i.symbol}）` }))}
        value={to}
        onChange={setTo}
        searchable
        data-testid="roll-target"
      />
      <Group grow>
        <NumberInput
          label={R.quantity}
          min={1}
          max={contract.remaining_quantity}
          allowDecimal={false}
          value={lots}
          onChange={setLots}
          data-testid="roll-quantity"
        />
        <NumberInput label={R.spread} allowNegative value={spread} onChange={setSpread} data-testid="roll-spread" />
        <NumberInput
          label={R.feePerUnit}
          min={0}
          decimalScale={2}
          value={fee}
          onChange={setFee}
          data-testid="roll-fee"
        />
      </Group>
      <TradingDayField
        instrumentId={to ?? contract.instrument_id}
        label={R.deadline}
        min={today}
        value={deadline}
        onChange={setDeadline}
        data-testid="roll-deadline"
      />
      <Group grow align="flex-start">
        <Select
          label={A.agreedVia}
          data={ROLL_AGREEMENTS.map((v) => ({ value: v, label: zh.rollApplications.agreements[v] }))}
          value={agreedVia}
          onChange={(v) => setAgreedVia(ROLL_AGREEMENTS.find((a) => a === v) ?? null)}
          required
          data-testid="roll-agreed-via"
        />
        <TextInput
          label={A.agreedNote}
          value={agreedNote}
          onChange={(e) => setAgreedNote(e.currentTarget.value)}
          error={agreedVia === 'other' && agreedNote.trim() === '' ? A.agreedNoteRequired : undefined}
          maxLength={200}
          data-testid="roll-agreed-note"
        />
      </Group>
    </EffectDialog>
  );
}

/** 延期: a later deadline and the fee, what will happen, and the confirmation. */
export function ExtendDialog({ contract, onClose }: { contract: ContractRow | null; onClose: () => void }) {
  const E = L.extendDialog;
  const extend = useExtendDeadline();
  const [deadline, setDeadline] = useState('');
  const [fee, setFee] = useState<number | string>(0);
  const [today] = useState(() => beijingDay(Date.now()));
  if (!contract) return null;
  const current = contract.fixing_deadline ?? '';
  const f = num(fee) || 0;
  const ready = deadline !== '' && deadline > current;
  return (
    <EffectDialog
      title={E.title(contract.name)}
      confirmLabel={E.confirm}
      texts={E}
      onClose={onClose}
      run={() => extend.mutateAsync({ contract_id: contract.id, fixing_deadline: deadline, fee: f })}
      effect={
        ready
          ? {
              testId: 'extend-effect',
              title: L.rollDialog.effectTitle,
              irreversible: E.irreversible,
              items: applying(
                E.effect(current || zh.fixing.noDeadline, deadline),
                contract.status === 'expired' && E.reopen,
                f > 0 && E.fee2(yuan(f)),
              ),
            }
          : null
      }
    >
      <Text size="sm">{E.current(current || zh.fixing.noDeadline)}</Text>
      <Group grow>
        <TradingDayField
          instrumentId={contract.instrument_id}
          label={E.deadline}
          min={current > today ? current : today}
          value={deadline}
          onChange={setDeadline}
          data-testid="extend-deadline"
        />
        <NumberInput label={E.fee} min={0} decimalScale={2} value={fee} onChange={setFee} data-testid="extend-fee" />
      </Group>
    </EffectDialog>
  );
}

/** The 转月确认单 as printed: every term of the roll, with units. */
export function RollConfirmationCard({ roll }: { roll: RollConfirmation }) {
  const C = L.confirmation;
  const rows: [string, string][] = [
    [C.no, roll.confirmation_no],
    [C.from, `${roll.from_instrument_id}（#${roll.from_contract_id}）`],
    [C.to, `${roll.to_instrument_id}（#${roll.to_contract_id}）`],
    [C.lots, formatLotsWithUnits(roll.quantity, roll.multiplier, roll.unit)],
    [C.oldBasis, formatBasis(roll.old_basis)],
    [C.spread, formatBasis(roll.spread)],
    [C.newBasis, formatBasis(roll.new_basis)],
    [C.fee, `${yuan(roll.fee)} 元`],
    [C.deadline, roll.fixing_deadline],
  ];
  return (
    <Table withTableBorder withColumnBorders data-testid="roll-confirmation" aria-label={C.title}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={120}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The contract's history in one place, and for an average contract its schedule and running average. */
export function ContractDetailDialog({
  contract,
  onClose,
  onRoll,
  onExtend,
  onSettle,
}: {
  contract: ContractRow | null;
  onClose: () => void;
  /** 转月, 延期 and 交割结算 open their own dialogs (with what will happen, and the confirmation). */
  onRoll: () => void;
  onExtend: () => void;
  onSettle: () => void;
}) {
  const D = L.detailDialog;
  const { schedule, history } = useContractDetail(contract?.id ?? null);
  // Only what the signed-in member's roles may do (docs/roles.md): 转月 and 延期 are 交易员's, 交割结算 财务's.
  const can = useCan();
  if (!contract) return null;
  const s = schedule.data;
  const mayRoll = can('rollContract') && contract.status !== 'completed' && contract.pricing_mode !== 'average';
  const mayExtend = can('extendDeadline') && contract.status !== 'completed';
  const maySettle = can('settleLots') && unsettledLots(contract) > 0;
  return (
    <ConsoleModal onClose={onClose} title={D.title(contract.name)} size="xl">
      <Stack gap="md">
        {mayRoll || mayExtend || maySettle ? (
          <Group gap="xs">
            {mayRoll ? (
              <Button size="xs" variant="outline" color={TONE.warning} onClick={onRoll}>
                {L.roll}
              </Button>
            ) : null}
            {mayExtend ? (
              <Button size="xs" variant="outline" color={TONE.warning} onClick={onExtend}>
                {L.extend}
              </Button>
            ) : null}
            {/* Fixed lots delivered: their margin is released (docs/margin.md). */}
            {maySettle ? (
              <Button
                size="xs"
                variant="outline"
                color={TONE.primary}
                onClick={onSettle}
                aria-label={`${zh.margin.contractSettle.action} ${contract.name}`}
              >
                {zh.margin.contractSettle.action}
              </Button>
            ) : null}
          </Group>
        ) : null}
        <ContractValueBlock contractId={contract.id} pricerId={contract.pricer_id} />
        {s && s.pricing_mode === 'average' ? (
          <Stack gap="xs" data-testid="contract-schedule">
            <Group justify="space-between">
              <Text fw={600}>{D.schedule}</Text>
              <Text size="sm" fw={600} data-testid="running-average">
                {s.avg_price === null ? D.noFills : D.runningAverage(formatPrice(s.avg_price))}
              </Text>
            </Group>
            {s.average_basis ? (
              <Text size="sm" fw={600} data-testid="average-basis">
                {zh.averageBasis.line(s.average_basis)}
              </Text>
            ) : null}
            <Text size="sm" c="dimmed">
              {zh.averageBasis.window(
                s.average_start ?? '',
                s.average_end ?? '',
                s.average_basis ?? null,
                s.fixing_time,
              )}
            </Text>
            <AverageScheduleTable
              basis={s.average_basis ?? null}
              days={s.days}
              renderStatus={(d) => (
                <Badge
                  variant="outline"
                  color={d.status === 'filled' ? TONE.success : d.status === 'skipped' ? TONE.muted : TONE.info}
                >
                  {zh.lifecycle.scheduleStatus[d.status]}
                </Badge>
              )}
            />
          </Stack>
        ) : null}
        <Stack gap="xs" data-testid="contract-history">
          <Text fw={600}>{D.history}</Text>
          {history.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{D.loading}</Text>
            </Group>
          ) : history.isError ? (
            <Alert color={TONE.danger} variant="light" role="alert">
              {D.failed(errorText(history.error))}
            </Alert>
          ) : (
            <List size="sm" spacing={6}>
              {history.data.items.map((e, i) => (
                <List.Item key={i}>
                  <Text span size="sm" c="dimmed">
                    {formatDateTime(e.at)}
                  </Text>{' '}
                  <Text span size="sm">
                    {e.text}
                    {e.fee > 0 ? `，${zh.lifecycle.history.fee(yuan(e.fee))}` : ''}
                  </Text>
                  {e.roll ? <RollConfirmationCard roll={e.roll} /> : null}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {D.close}
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}
