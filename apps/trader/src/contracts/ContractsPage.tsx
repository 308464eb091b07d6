import { Badge, Button, Stack, Text } from '@pfp/mantine';
import { DataTable, filterConfigsOf, TwoLineCell, type DataTableColumn } from '@pfp/data-table';
import {
  beijingDay,
  DEADLINE_WARNING_DAYS,
  formatBasis,
  formatLots,
  formatNumber,
  formatPercent,
  formatPrice,
  zh,
} from '@pfp/i18n';
import { directionColumn, instrumentColumn } from '../shared/columns';
import { IconPlus } from '@pfp/ui';
import { tradingDaysUntil, type ContractRow } from '@pfp/contract';
import { useCallback, useMemo, useState } from 'react';
import { errorText, useContractStats, useContractsTable, useUpdatingContracts } from '../shared/api';
import { PageLayout, figure } from '../shared/PageLayout';
import { ContractDialog } from './ContractDialog';
import { ContractStatusDialog, type StatusChange } from './ContractStatusDialog';
import { SettleContractDialog } from './SettleContractDialog';
import { ContractDetailDialog, ExtendDialog, RollDialog } from './LifecycleDialogs';
import { useCan } from '../shared/roles';
import { CONTRACT_STATUSES } from './contractForm';
import { computeContractStats } from './contractStats';
import { TONE } from '../shared/tones';

const t = zh.trader.contracts;
const L = zh.lifecycle.ui;

/** SPEC §9: the list shows 20 rows per page (the stats refetch every 30 s, in the data layer). */
export const CONTRACTS_PAGE_SIZE = 20;

const STATUS_COLOR: Record<string, string> = {
  active: TONE.success,
  paused: TONE.warning,
  expired: TONE.muted,
  completed: TONE.info,
};

export const contractStatusLabel = (status: string) => t.status[status] ?? status;

/**
 * The deadline over the days left (two lines, so the column stays narrow) while the contract can
 * still be fixed; orange within 3 days.
 */
function DeadlineText({ contract: c }: { contract: ContractRow }) {
  if (!c.fixing_deadline) return <>{zh.fixing.noDeadline}</>;
  const open = c.status === 'active' || c.status === 'paused';
  const days = tradingDaysUntil(c.instrument_id, c.fixing_deadline, beijingDay());
  if (!open || days < 0) return <>{c.fixing_deadline}</>;
  const soon = days <= DEADLINE_WARNING_DAYS;
  return (
    <Stack gap={0}>
      <Text span size="sm" lh={1.35}>
        {c.fixing_deadline}
      </Text>
      <Text span size="xs" lh={1.35} c={soon ? TONE.warning : 'dimmed'} fw={soon ? 600 : undefined}>
        {zh.fixing.daysLeft(days)}
      </Text>
    </Stack>
  );
}

/**
 * Widths and priorities keep 剩余, 截止日, 状态 and the sticky 操作 column (编辑, 暂停/激活) on a
 * 1280 px laptop without sideways scrolling, with the customer and the instrument; wider screens add
 * the total (1366), the basis (1440), then the rest (see @pfp/data-table fitColumns).
 */
export const CONTRACT_COLUMNS: DataTableColumn<ContractRow>[] = [
  { field: 'id', header: t.columns.id, width: 56, render: (c) => String(c.id) },
  {
    field: 'name',
    header: t.columns.name,
    width: 136,
    filter: { type: 'text', placeholder: t.filterName },
    render: (c) => (
      <Text size="sm" lineClamp={2} title={c.name}>
        {c.name}
      </Text>
    ),
  },
  { field: 'pricer_name', header: t.columns.pricer, width: 96, priority: 2, filter: { type: 'text' } },
  { field: 'product_name', header: t.columns.product, width: 72, priority: 3 },
  instrumentColumn(t.columns.instrument, 96),
  directionColumn(t.columns.direction, 80),
  {
    field: 'total_quantity',
    header: t.columns.total,
    width: 100,
    priority: 2,
    // Lots over the quantity they stand for (issue 29): 200 手 over 2,000 吨.
    render: (c) =>
      c.unit && c.multiplier ? (
        <TwoLineCell
          top={formatLots(c.total_quantity)}
          bottom={`${formatNumber(c.total_quantity * c.multiplier)} ${c.unit}`}
        />
      ) : (
        formatLots(c.total_quantity)
      ),
  },
  {
    field: 'executed_quantity',
    header: t.columns.executed,
    width: 96,
    priority: 3,
    render: (c) => formatLots(c.executed_quantity),
  },
  {
    field: 'frozen_quantity',
    header: t.columns.frozen,
    width: 88,
    priority: 3,
    render: (c) => formatLots(c.frozen_quantity),
  },
  {
    field: 'remaining_quantity',
    header: t.columns.remaining,
    width: 100,
    render: (c) => formatLots(c.remaining_quantity),
  },
  {
    field: 'avg_price',
    header: t.columns.avgPrice,
    width: 112,
    priority: 3,
    render: (c) => (c.executed_quantity > 0 && c.avg_price ? formatPrice(c.avg_price) : '-'),
  },
  { field: 'basis', header: zh.fixing.basis, width: 88, priority: 2, render: (c) => formatBasis(c.basis) },
  {
    field: 'avg_fixed_price',
    header: zh.fixing.avgFixedPrice,
    width: 112,
    priority: 3,
    render: (c) =>
      c.avg_fixed_price !== null && c.avg_fixed_price !== undefined ? formatPrice(c.avg_fixed_price) : '-',
  },
  {
    field: 'fixing_deadline',
    header: zh.fixing.deadline,
    width: 108,
    filter: { type: 'text' },
    render: (c) => <DeadlineText contract={c} />,
  },
  {
    field: 'status',
    header: t.columns.status,
    kind: 'badge',
    width: 88,
    // Under the status, the margin rate the contract holds (issue 41): in view on a 1280 px laptop, where a
    // column of its own would push out the customer.
    render: (c) => (
      <Stack gap={2} align="flex-start">
        <Badge variant="outline" color={STATUS_COLOR[c.status] ?? TONE.muted} data-status={c.status}>
          {contractStatusLabel(c.status)}
        </Badge>
        <Text size="xs" c="gray.7" data-testid="contract-margin-rate" style={{ whiteSpace: 'nowrap' }}>
          {zh.marginDefaults.listRate(c.margin_rate ?? 0)}
        </Text>
      </Stack>
    ),
    filter: {
      type: 'select',
      options: CONTRACT_STATUSES.map((value) => ({ value, label: contractStatusLabel(value) })),
    },
  },
  // issue 32: how the contract is priced, and the roll and extension fees charged on it (元).
  {
    field: 'pricing_mode',
    header: zh.lifecycle.ui.pricingMode,
    width: 96,
    priority: 4,
    // 均价依据 with it (issue 43): 均价点价（结算价）.
    render: (c) =>
      c.pricing_mode === 'average' && c.average_basis
        ? zh.averageBasis.mode(c.average_basis)
        : zh.lifecycle.pricingModes[c.pricing_mode ?? 'point'],
  },
  {
    field: 'fees',
    header: zh.lifecycle.ui.fees,
    width: 104,
    priority: 4,
    render: (c) => (c.fees ? `${formatNumber(c.fees, 2)} 元` : '-'),
  },
  { field: 'created_at', header: t.columns.createdAt, kind: 'date', twoLine: true, width: 108, priority: 4 },
];

/**
 * The sticky actions column: 编辑, 暂停 or 激活, and 详情 — the contract's own panel (issue 32: history and
 * schedule, with 转月 and 延期; issue 31: 交割结算 while fixed lots are unsettled), side by side on narrow
 * padding. Three buttons keep the total at 1366 px and the basis at 1440 px in view.
 */
export const CONTRACT_ACTIONS_WIDTH = 136;

export function ContractsPage() {
  const [dialog, setDialog] = useState<{ key: number; opened: boolean; contract: ContractRow | null }>({
    key: 0,
    opened: false,
    contract: null,
  });
  // 暂停 / 激活 open a confirmation that says what they do to live orders and 条件单 (issue 30).
  const [statusChange, setStatusChange] = useState<StatusChange | null>(null);
  // 交割结算 (docs/margin.md): settled lots release their margin.
  const [settling, setSettling] = useState<ContractRow | null>(null);
  const updating = useUpdatingContracts();
  // 转月, 延期 and 详情 (issue 32): one dialog at a time, remounted per contract (a fresh form).
  const [life, setLife] = useState<{ kind: 'roll' | 'extend' | 'detail'; contract: ContractRow } | null>(null);

  const stats = useContractStats(computeContractStats);
  const filterConfigs = useMemo(() => filterConfigsOf(CONTRACT_COLUMNS), []);
  const table = useContractsTable({
    filterConfigs,
    initialPageSize: CONTRACTS_PAGE_SIZE,
    initialSorting: [{ field: 'id', ascending: false }],
  });

  // A new key remounts the dialog with a fresh form.
  const open = useCallback(
    (contract: ContractRow | null) => setDialog((d) => ({ key: d.key + 1, opened: true, contract })),
    [],
  );

  const changeStatus = useCallback(
    (contract: ContractRow, to: StatusChange['to']) => setStatusChange({ contract, to }),
    [],
  );

  // Only what the signed-in member's roles may do (the route table's roles, docs/roles.md); 详情 is a read.
  const can = useCan();
  const mayEdit = can('updateContractStatus');
  const renderRowActions = useCallback(
    (contract: ContractRow) => {
      const busy = updating.includes(contract.id);
      return (
        <>
          {mayEdit ? (
            <Button
              size="compact-xs"
              px={5}
              variant="outline"
              color={TONE.info}
              onClick={() => open(contract)}
              aria-label={`${t.edit} ${contract.name}`}
            >
              {t.edit}
            </Button>
          ) : null}
          {mayEdit && contract.status === 'active' ? (
            <Button
              size="compact-xs"
              px={5}
              variant="outline"
              color={TONE.warning}
              disabled={busy}
              onClick={() => changeStatus(contract, 'paused')}
              aria-label={`${t.pause} ${contract.name}`}
            >
              {t.pause}
            </Button>
          ) : null}
          {mayEdit && contract.status === 'paused' ? (
            <Button
              size="compact-xs"
              px={5}
              variant="outline"
              color={TONE.success}
              disabled={busy}
              onClick={() => changeStatus(contract, 'active')}
              aria-label={`${t.activate} ${contract.name}`}
            >
              {t.activate}
            </Button>
          ) : null}
          <Button
            size="compact-xs"
            px={5}
            variant="outline"
            color={TONE.info}
            onClick={() => setLife({ kind: 'detail', contract })}
            aria-label={`${L.detail} ${contract.name}`}
          >
            {L.detail}
          </Button>
        </>
      );
    },
    [changeStatus, mayEdit, open, updating],
  );

  const s = stats.data;
  const count = (key: 'total' | 'active' | 'paused') => ({
    testId: `stat-contracts-${key}`,
    label: t.stats[key],
    value: figure(s, (s) => formatNumber(s[key])),
  });
  const rate = {
    testId: 'stat-contracts-rate',
    label: t.stats.rate,
    value: figure(s, (s) => formatPercent(s.executionRate)),
  };
  return (
    <PageLayout
      subtitle={t.subtitle}
      actions={
        can('createContract') ? (
          <Button color={TONE.primary} leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            {t.create}
          </Button>
        ) : undefined
      }
      error={stats.isError ? t.statsFailed(errorText(stats.error)) : undefined}
      stats={{
        label: t.stats.label,
        items: [count('total'), count('active'), count('paused'), rate],
      }}
    >
      <DataTable<ContractRow>
        controller={table}
        columns={CONTRACT_COLUMNS}
        title={t.listTitle}
        description={t.listDescription}
        renderRowActions={renderRowActions}
        actionsColumnWidth={CONTRACT_ACTIONS_WIDTH}
      />
      <ContractStatusDialog change={statusChange} onClose={() => setStatusChange(null)} />
      {settling ? <SettleContractDialog contract={settling} onClose={() => setSettling(null)} /> : null}
      {life?.kind === 'roll' ? (
        <RollDialog key={`roll-${life.contract.id}`} contract={life.contract} onClose={() => setLife(null)} />
      ) : null}
      {life?.kind === 'extend' ? (
        <ExtendDialog key={`extend-${life.contract.id}`} contract={life.contract} onClose={() => setLife(null)} />
      ) : null}
      {life?.kind === 'detail' ? (
        <ContractDetailDialog
          contract={life.contract}
          onClose={() => setLife(null)}
          onRoll={() => setLife({ kind: 'roll', contract: life.contract })}
          onExtend={() => setLife({ kind: 'extend', contract: life.contract })}
          onSettle={() => {
            setLife(null);
            setSettling(life.contract);
          }}
        />
      ) : null}
      <ContractDialog
        key={dialog.key}
        opened={dialog.opened}
        contract={dialog.contract}
        onClose={() => setDialog((d) => ({ ...d, opened: false }))}
      />
    </PageLayout>
  );
}
