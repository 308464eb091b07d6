import { NumberInput, SimpleGrid, Stack, Text, TextInput } from '@pfp/mantine';
import { formatLots, formatNumber, zh } from '@pfp/i18n';
import type { ContractRow } from '@pfp/contract';
import { useState } from 'react';
import { useSettleLots } from '../shared/api';
import { TwoStepDialog } from '../shared/TwoStepDialog';

const d = zh.margin.contractSettle;

/** Fixed lots of the contract not yet settled (what 交割结算 may take). */
export const unsettledLots = (c: ContractRow) => Math.max(0, c.executed_quantity - (c.settled_quantity ?? 0));

/** "3 手（15 吨）": lots, and what they count in the product's unit when the instrument has one. */
export function lotsWithUnits(c: ContractRow, lots: number) {
  return c.unit && c.multiplier
    ? `${formatLots(lots)}（${formatNumber(lots * c.multiplier)} ${c.unit}）`
    : formatLots(lots);
}

/**
 * The margin settling `lots` releases: (avg futures fill price + basis) × lots × multiplier × rate, as the
 * server holds it (docs/margin.md); 0 on a contract without a margin rate.
 */
export function marginReleased(c: ContractRow, lots: number) {
  const rate = c.margin_rate ?? 0;
  if (!(rate > 0) || !(lots > 0)) return 0;
  return Math.round((c.avg_price + c.basis) * lots * (c.multiplier ?? 1) * rate * 100) / 100;
}

/**
 * 交割结算 from the contracts page's row: how many of the fixed, not yet settled lots (in lots and in the
 * product's unit), a note, what it releases; then a confirmation naming the consequence. A refusal of
 * the server (more than unsettled, a race lost) is shown in the dialog as it said it.
 */
export function SettleContractDialog({ contract, onClose }: { contract: ContractRow; onClose: () => void }) {
  const open = unsettledLots(contract);
  const [lots, setLots] = useState<number | ''>(open);
  const [note, setNote] = useState('');
  const settle = useSettleLots();
  const valid = lots !== '' && Number.isInteger(lots) && lots >= 1 && lots <= open;
  const quantity = valid ? lots : 0;
  const released = marginReleased(contract, quantity);
  const figure = (label: string, value: string) => (
    <Stack gap={2}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
  return (
    <TwoStepDialog
      title={d.title(contract.name)}
      confirmTitle={d.confirmTitle}
      labels={{ cancel: d.cancel, next: d.next, back: zh.margin.settleDialog.back, confirm: d.confirm }}
      nextDisabled={!valid}
      run={() => settle.mutateAsync({ contract_id: contract.id, quantity, note: note.trim() })}
      texts={d}
      onClose={onClose}
      confirmation={
        <>
          <Text>{d.confirmText(contract.name, contract.pricer_name ?? '', lotsWithUnits(contract, quantity))}</Text>
          <Text fw={600}>{released > 0 ? d.releases(formatNumber(released, 2)) : d.noMargin}</Text>
        </>
      }
      entry={
        <>
          <SimpleGrid cols={2} spacing="sm">
            {figure(d.customer, contract.pricer_name ?? '-')}
            {figure(d.executed, lotsWithUnits(contract, contract.executed_quantity))}
            {figure(d.settled, lotsWithUnits(contract, contract.settled_quantity ?? 0))}
            {figure(d.open, lotsWithUnits(contract, open))}
          </SimpleGrid>
          <NumberInput
            label={d.quantity}
            value={lots}
            onChange={(v) => setLots(typeof v === 'number' ? v : '')}
            min={1}
            max={open}
            allowDecimal={false}
            allowNegative={false}
            suffix=" 手"
            description={valid && contract.unit && contract.multiplier ? lotsWithUnits(contract, quantity) : undefined}
            error={lots !== '' && !valid ? d.invalid(formatLots(open)) : undefined}
            data-autofocus
          />
          <TextInput
            label={d.note}
            placeholder={d.notePlaceholder}
            value={note}
            maxLength={200}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          <Text size="sm">{valid ? (released > 0 ? d.releases(formatNumber(released, 2)) : d.noMargin) : null}</Text>
        </>
      }
    />
  );
}
