import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  useMediaQuery,
} from '@pfp/mantine';
import { formatNumber, zh } from '@pfp/i18n';
import type { ContractRow, FundsKind, PricerAccount } from '@pfp/contract';
import { FundsLedgerTable, notify } from '@pfp/ui';
import { useState } from 'react';
import { useCan } from '../shared/roles';
import {
  errorText,
  isPendingApproval,
  useFundsLedger,
  usePricerAccounts,
  useRecordFunds,
  useSetCreditLine,
  useSettleLots,
  useUnsettledContracts,
} from '../shared/api';
import { ConsoleModal } from '../shared/ConsoleModal';
import { ConfirmStep } from '../shared/DialogActions';
import { PageHeading } from '../shared/PageHeading';
import { TwoStepDialog } from '../shared/TwoStepDialog';
import { TONE } from '../shared/tones';
import { ContractValuesCard } from './ContractValuesCard';
import { MarginSettingsDialog } from '../shared/MarginSettingsDialog';
import { AccountCards } from './AccountCards';

const t = zh.margin;
/**
 * Cards until the table fits: its 900 px beside the 250 px sidebar need about 1,200 px. At 820 px (a tablet
 * beside the sidebar) the table was cut before 可用保证金, 状态 and the buttons, as it was on a phone.
 */
const PHONE_QUERY = '(max-width: 1199.98px)';
const yuan = (n: number) => formatNumber(n, 2);

type Dialog = { kind: 'funds' | 'credit' | 'ledger' | 'settle'; account: PricerAccount } | null;

/** /trader/margin: the customers' accounts, margin calls first and highlighted (docs/margin.md). */
export function MarginPage() {
  const accounts = usePricerAccounts();
  const can = useCan();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // A phone or tablet gets cards (issue 41): the table's 可用 and 状态 were cut off at 375 and 820 px.
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  return (
    <Stack gap="md">
      <PageHeading
        subtitle={t.subtitle}
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => setSettingsOpen(true)}>
              {zh.marginDefaults.settings.title}
            </Button>
            <Button variant="default" onClick={() => void accounts.refetch()} loading={accounts.isFetching}>
              {t.refresh}
            </Button>
          </Group>
        }
      />
      {accounts.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.loadFailed(errorText(accounts.error))}
        </Alert>
      ) : null}
      <Card withBorder radius="md" padding="md">
        <Title order={3} size="h4" mb="xs">
          {t.tableTitle}
        </Title>
        {accounts.isPending ? (
          <Group justify="center" py="xl">
            <Loader />
          </Group>
        ) : accounts.data?.items.length && phone ? (
          <AccountCards items={accounts.data.items} open={(kind, account) => setDialog({ kind, account })} can={can} />
        ) : accounts.data?.items.length ? (
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder aria-label={t.tableTitle} data-testid="accounts-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.columns.pricer}</Table.Th>
                  <Table.Th ta="right">{t.columns.balance}</Table.Th>
                  <Table.Th ta="right">{t.columns.creditLine}</Table.Th>
                  <Table.Th ta="right">{t.columns.margin}</Table.Th>
                  <Table.Th ta="right">{t.columns.pnl}</Table.Th>
                  <Table.Th ta="right">{t.columns.available}</Table.Th>
                  <Table.Th>{t.columns.status}</Table.Th>
                  <Table.Th>{t.columns.actions}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {accounts.data.items.map((a) => (
                  <Table.Tr
                    key={a.pricer_id}
                    data-margin-call={a.margin_call || undefined}
                    bg={a.margin_call ? 'var(--mantine-color-red-light)' : undefined}
                  >
                    <Table.Td>{a.pricer_name}</Table.Td>
                    <Table.Td ta="right">{yuan(a.balance)}</Table.Td>
                    <Table.Td ta="right">{yuan(a.credit_line)}</Table.Td>
                    <Table.Td ta="right">{yuan(a.margin_required)}</Table.Td>
                    <Table.Td ta="right" c={a.floating_pnl < 0 ? TONE.danger : undefined}>
                      {yuan(a.floating_pnl)}
                    </Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {yuan(a.available)}
                    </Table.Td>
                    <Table.Td>
                      {a.margin_call ? (
                        <Badge color={TONE.danger} variant="filled">
                          {t.inCall(yuan(a.call_amount))}
                        </Badge>
                      ) : (
                        <Badge color={TONE.success} variant="outline">
                          {t.normal}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {can('recordFunds') ? (
                          <Button size="xs" variant="light" onClick={() => setDialog({ kind: 'funds', account: a })}>
                            {t.funds}
                          </Button>
                        ) : null}
                        {can('setCreditLine') ? (
                          <Button size="xs" variant="default" onClick={() => setDialog({ kind: 'credit', account: a })}>
                            {t.credit}
                          </Button>
                        ) : null}
                        <Button size="xs" variant="subtle" onClick={() => setDialog({ kind: 'ledger', account: a })}>
                          {t.ledger}
                        </Button>
                        {can('settleLots') ? (
                          <Button size="xs" variant="subtle" onClick={() => setDialog({ kind: 'settle', account: a })}>
                            {t.settle}
                          </Button>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="gray.7">{t.empty}</Text>
        )}
      </Card>
      <ContractValuesCard />
      {settingsOpen ? <MarginSettingsDialog onClose={() => setSettingsOpen(false)} /> : null}
      {dialog?.kind === 'funds' ? <FundsDialog account={dialog.account} onClose={close} /> : null}
      {dialog?.kind === 'credit' ? <CreditDialog account={dialog.account} onClose={close} /> : null}
      {dialog?.kind === 'ledger' ? <LedgerDialog account={dialog.account} onClose={close} /> : null}
      {dialog?.kind === 'settle' ? <SettleDialog account={dialog.account} onClose={close} /> : null}
    </Stack>
  );
}

/**
 * The amount a NumberInput holds: its value is a number once one is typed, else the text so far
 * ('' or a lone '-'), which is no amount (null) — never NaN on a confirmation or on the wire.
 */
const amountOf = (v: number | string): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** 入金 / 出金 / 调整: the entry, then its confirmation (the ledger is never edited). */
function FundsDialog({ account, onClose }: { account: PricerAccount; onClose: () => void }) {
  const d = t.fundsDialog;
  const record = useRecordFunds();
  const [kind, setKind] = useState<FundsKind>('deposit');
  const [input, setInput] = useState<number | string>('');
  const amount = amountOf(input);
  const [note, setNote] = useState('');
  // 银行流水号: every deposit and withdrawal names its bank transfer (issue 42); an adjustment has none.
  const [bankRef, setBankRef] = useState('');
  const needsRef = kind !== 'adjust';
  return (
    <TwoStepDialog
      title={d.title(account.pricer_name)}
      labels={d}
      nextDisabled={amount === null || amount === 0 || (needsRef && !bankRef.trim())}
      run={() =>
        record.mutateAsync({
          pricer_id: account.pricer_id,
          kind,
          amount: amount!,
          note,
          ...(bankRef.trim() ? { bank_ref: bankRef.trim() } : {}),
        })
      }
      texts={d}
      onClose={onClose}
      confirmation={`${d.confirmText(t.kinds[kind] ?? kind, yuan(amount ?? 0), account.pricer_name)}${
        bankRef.trim() ? ` ${zh.roles.ledger.bankRef}：${bankRef.trim()}` : ''
      }`}
      entry={
        <>
          <Select
            label={d.kind}
            data={(['deposit', 'withdraw', 'adjust'] as const).map((k) => ({ value: k, label: t.kinds[k]! }))}
            value={kind}
            onChange={(v) => v && setKind(v as FundsKind)}
            allowDeselect={false}
          />
          <NumberInput
            label={d.amount}
            description={kind === 'adjust' ? d.amountHint : undefined}
            value={input}
            onChange={setInput}
            decimalScale={2}
            allowNegative={kind === 'adjust'}
            thousandSeparator=","
            data-autofocus
          />
          {needsRef ? (
            <TextInput
              label={zh.roles.ledger.bankRef}
              value={bankRef}
              onChange={(e) => setBankRef(e.currentTarget.value)}
              maxLength={64}
              withAsterisk
            />
          ) : null}
          <TextInput label={d.note} value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={200} />
        </>
      }
    />
  );
}

/** 授信额度: the entry, then its confirmation, like the funds. */
function CreditDialog({ account, onClose }: { account: PricerAccount; onClose: () => void }) {
  const d = t.creditDialog;
  const set = useSetCreditLine();
  const [input, setInput] = useState<number | string>(account.credit_line);
  const amount = amountOf(input);
  const [note, setNote] = useState('');
  return (
    <TwoStepDialog
      title={d.title(account.pricer_name)}
      labels={d}
      nextDisabled={amount === null}
      run={() => set.mutateAsync({ pricer_id: account.pricer_id, credit_line: amount!, note })}
      texts={d}
      onClose={onClose}
      confirmation={d.confirmText(yuan(amount ?? 0), account.pricer_name)}
      entry={
        <>
          <NumberInput
            label={d.amount}
            value={input}
            onChange={setInput}
            decimalScale={2}
            allowNegative={false}
            thousandSeparator=","
            data-autofocus
          />
          <TextInput label={d.note} value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={200} />
        </>
      }
    />
  );
}

/** The customer's ledger, newest first (the latest 100). */
function LedgerDialog({ account, onClose }: { account: PricerAccount; onClose: () => void }) {
  const d = t.ledgerDialog;
  const ledger = useFundsLedger(account.pricer_id);
  return (
    <ConsoleModal onClose={onClose} title={d.title(account.pricer_name)} size="xl">
      {ledger.isPending ? (
        <Group justify="center" py="md">
          <Loader size="sm" />
        </Group>
      ) : ledger.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.loadFailed(errorText(ledger.error))}
        </Alert>
      ) : ledger.data.items.length ? (
        <FundsLedgerTable items={ledger.data.items} label={d.title(account.pricer_name)} staff />
      ) : (
        <Text c="gray.7">{d.empty}</Text>
      )}
    </ConsoleModal>
  );
}

/** 结算交货: a customer's contracts with fixed, not yet settled lots; settling releases their margin. */
function SettleDialog({ account, onClose }: { account: PricerAccount; onClose: () => void }) {
  const d = t.settleDialog;
  const contracts = useUnsettledContracts(account.pricer_id);
  const settle = useSettleLots();
  const [lots, setLots] = useState<Record<number, number | ''>>({});
  const [confirming, setConfirming] = useState<{ contract: ContractRow; quantity: number } | null>(null);
  const submit = () => {
    if (!confirming) return;
    settle.mutate(
      { contract_id: confirming.contract.id, quantity: confirming.quantity, note: '' },
      {
        onSuccess: (data) => {
          notify(isPendingApproval(data) ? zh.roles.approvals.submitted(data.request_id) : d.done, 'success');
          setConfirming(null);
          void contracts.refetch();
        },
        onError: (err) => {
          notify(d.failed(errorText(err)), 'error');
          setConfirming(null);
        },
      },
    );
  };
  return (
    <ConsoleModal onClose={onClose} busy={settle.isPending} title={d.title(account.pricer_name)} size="xl">
      {confirming ? (
        <ConfirmStep
          backLabel={d.back}
          onBack={() => setConfirming(null)}
          confirmLabel={d.confirm}
          onConfirm={submit}
          busy={settle.isPending}
        >
          {d.confirmText(confirming.contract.name, confirming.quantity)}
        </ConfirmStep>
      ) : contracts.isPending ? (
        <Group justify="center" py="md">
          <Loader size="sm" />
        </Group>
      ) : contracts.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.loadFailed(errorText(contracts.error))}
        </Alert>
      ) : contracts.data.length ? (
        <Table striped withTableBorder aria-label={d.title(account.pricer_name)}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{d.contract}</Table.Th>
              <Table.Th ta="right">{d.executed}</Table.Th>
              <Table.Th ta="right">{d.settled}</Table.Th>
              <Table.Th>{d.quantity}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contracts.data.map((c) => {
              const open = c.executed_quantity - (c.settled_quantity ?? 0);
              const value = lots[c.id] ?? open;
              return (
                <Table.Tr key={c.id}>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td ta="right">{formatNumber(c.executed_quantity)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(c.settled_quantity ?? 0)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <NumberInput
                        aria-label={`${d.quantity} ${c.name}`}
                        value={value}
                        onChange={(v) => setLots((l) => ({ ...l, [c.id]: typeof v === 'number' ? v : '' }))}
                        min={1}
                        max={open}
                        allowDecimal={false}
                        allowNegative={false}
                        w={100}
                      />
                      <Button
                        size="xs"
                        disabled={value === '' || value < 1 || value > open}
                        onClick={() => value !== '' && setConfirming({ contract: c, quantity: value })}
                      >
                        {d.settle}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="gray.7">{d.empty}</Text>
      )}
    </ConsoleModal>
  );
}
