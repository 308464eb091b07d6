import { Badge, Button } from '@pfp/mantine';
import type { PricerUserRow } from '@pfp/contract';
import { DataTable, filterConfigsOf, type DataTableColumn } from '@pfp/data-table';
import { formatNumber, zh } from '@pfp/i18n';
import { IconUserPlus } from '@pfp/ui';
import { useCallback, useMemo, useState } from 'react';
import { errorText, useUsersTable, useUserStats, type StatusGroup } from '../shared/api';
import { PageLayout, figure } from '../shared/PageLayout';
import { AuthorisedPricersDialog } from './AuthorisedPricersDialog';
import { CreatePricerDialog } from './CreatePricerDialog';
import { EditPricerDialog } from './EditPricerDialog';
import { nextPricerStatus } from './pricerForms';
import { PricerStatusDialog } from './PricerStatusDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { UnlockPricerDialog } from './UnlockPricerDialog';
import { TONE } from '../shared/tones';
import { useCan } from '../shared/roles';
import { TraderStatementExport } from './TraderStatementExport';

const t = zh.trader.pricers;

/** SPEC §9: 20 customers per page (the stats refetch every 30 s, in the data layer). */
export const PRICERS_PAGE_SIZE = 20;

const STATUS_COLOR: Record<string, string> = { active: TONE.success, pending: TONE.warning, inactive: TONE.muted };
export const pricerStatusLabel = (status: string) => t.status[status] ?? status;

export interface UserStats {
  total: number;
  active: number;
  pending: number;
  inactive: number;
}

/** From the users view grouped by status with count_id. */
export function computeUserStats(groups: readonly StatusGroup[]): UserStats {
  const stats: UserStats = { total: 0, active: 0, pending: 0, inactive: 0 };
  for (const group of groups) {
    const count = Number(group.count_id) || 0;
    stats.total += count;
    if (group.status === 'active' || group.status === 'pending' || group.status === 'inactive')
      stats[group.status] += count;
  }
  return stats;
}

export const PRICER_COLUMNS: DataTableColumn<PricerUserRow>[] = [
  { field: 'id', header: t.columns.id, width: 72, render: (u) => String(u.id) },
  { field: 'username', header: t.columns.username, width: 150, filter: { type: 'text' } },
  {
    field: 'status',
    header: t.columns.status,
    kind: 'badge',
    width: 96,
    render: (u) => (
      <Badge variant="outline" color={STATUS_COLOR[u.status] ?? TONE.muted} data-status={u.status}>
        {pricerStatusLabel(u.status)}
      </Badge>
    ),
    filter: {
      type: 'select',
      options: ['active', 'pending', 'inactive'].map((value) => ({ value, label: pricerStatusLabel(value) })),
    },
  },
  {
    field: 'full_name',
    header: zh.customers.fullName,
    width: 200,
    priority: 2,
    filter: { type: 'text' },
    render: (u) => u.full_name ?? '',
  },
  { field: 'phone', header: t.columns.phone, width: 130, priority: 2, filter: { type: 'text' } },
  {
    field: 'confirm_before_fix',
    header: zh.customers.confirmBeforeFix,
    width: 96,
    priority: 3,
    render: (u) => (u.confirm_before_fix === false ? zh.customers.confirmOff : zh.customers.confirmOn),
  },
  { field: 'created_at', header: t.columns.createdAt, kind: 'date', twoLine: true, width: 112, priority: 3 },
  { field: 'last_login_at', header: t.columns.lastLogin, kind: 'date', twoLine: true, width: 112, priority: 2 },
];

/** The sticky actions column: 编辑, 点价人 (授权点价人), 重置密码, 解锁 and 停用 or 启用. */
export const PRICER_ACTIONS_WIDTH = 284;

export function PricersPage() {
  const [createKey, setCreateKey] = useState(0);
  const [createOpen, setCreateOpen] = useState(false);
  const [resetting, setResetting] = useState<{ key: number; opened: boolean; user: PricerUserRow | null }>({
    key: 0,
    opened: false,
    user: null,
  });
  const [statusOf, setStatusOf] = useState<PricerUserRow | null>(null);
  const [unlocking, setUnlocking] = useState<PricerUserRow | null>(null);
  const [editing, setEditing] = useState<PricerUserRow | null>(null);
  const [persons, setPersons] = useState<PricerUserRow | null>(null);

  const stats = useUserStats(computeUserStats);
  const filterConfigs = useMemo(() => filterConfigsOf(PRICER_COLUMNS), []);
  const table = useUsersTable({
    filterConfigs,
    initialPageSize: PRICERS_PAGE_SIZE,
    initialSorting: [{ field: 'id', ascending: false }],
  });
  // Only what the signed-in member's roles may do (the route table's roles, docs/roles.md).
  const can = useCan();
  const may = {
    edit: can('updatePricerProfile'),
    reset: can('resetPricerPassword'),
    unlock: can('unlockPricer'),
    status: can('updatePricerStatus'),
  };
  const renderRowActions = useCallback(
    (user: PricerUserRow) => (
      <>
        {may.edit ? (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.info}
            onClick={() => setEditing(user)}
            aria-label={`${t.edit} ${user.username}`}
          >
            {t.edit}
          </Button>
        ) : null}
        <Button
          size="compact-xs"
          variant="outline"
          color={TONE.primary}
          onClick={() => setPersons(user)}
          aria-label={zh.authorisedPricers.rowActionLabel(user.username)}
        >
          {zh.authorisedPricers.rowAction}
        </Button>
        {may.reset ? (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.warning}
            onClick={() => setResetting((r) => ({ key: r.key + 1, opened: true, user }))}
            aria-label={`${t.resetPassword} ${user.username}`}
          >
            {t.resetPassword}
          </Button>
        ) : null}
        {may.unlock ? (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.info}
            onClick={() => setUnlocking(user)}
            aria-label={`${zh.lockout.unlock} ${user.username}`}
          >
            {zh.lockout.unlock}
          </Button>
        ) : null}
        {!may.status ? null : nextPricerStatus(user.status) === 'inactive' ? (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.danger}
            onClick={() => setStatusOf(user)}
            aria-label={`${t.deactivate} ${user.username}`}
          >
            {t.deactivate}
          </Button>
        ) : (
          <Button
            size="compact-xs"
            variant="outline"
            color={TONE.success}
            onClick={() => setStatusOf(user)}
            aria-label={`${t.activate} ${user.username}`}
          >
            {t.activate}
          </Button>
        )}
      </>
    ),
    [may.edit, may.reset, may.unlock, may.status],
  );

  const s = stats.data;
  const count = (key: 'total' | 'active' | 'pending' | 'inactive') => ({
    testId: `stat-users-${key}`,
    label: t.stats[key],
    value: figure(s, (s) => formatNumber(s[key])),
  });
  return (
    <PageLayout
      subtitle={t.subtitle}
      actions={
        <>
          <TraderStatementExport />
          {can('createPricerUser') ? (
            <Button
              color={TONE.primary}
              leftSection={<IconUserPlus size={16} />}
              onClick={() => {
                setCreateKey((k) => k + 1);
                setCreateOpen(true);
              }}
            >
              {t.create}
            </Button>
          ) : null}
        </>
      }
      error={stats.isError ? t.statsFailed(errorText(stats.error)) : undefined}
      stats={{ label: t.stats.label, items: [count('total'), count('active'), count('pending'), count('inactive')] }}
    >
      <DataTable<PricerUserRow>
        controller={table}
        columns={PRICER_COLUMNS}
        title={t.listTitle}
        description={t.listDescription}
        renderRowActions={renderRowActions}
        actionsColumnWidth={PRICER_ACTIONS_WIDTH}
      />
      <CreatePricerDialog key={`create-${createKey}`} opened={createOpen} onClose={() => setCreateOpen(false)} />
      <PricerStatusDialog user={statusOf} onClose={() => setStatusOf(null)} />
      <UnlockPricerDialog user={unlocking} onClose={() => setUnlocking(null)} />
      <AuthorisedPricersDialog key={`persons-${persons?.id ?? 0}`} user={persons} onClose={() => setPersons(null)} />
      <EditPricerDialog key={`edit-${editing?.id ?? 0}`} user={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog
        key={`reset-${resetting.key}`}
        opened={resetting.opened}
        user={resetting.user}
        onClose={() => setResetting((r) => ({ ...r, opened: false }))}
      />
    </PageLayout>
  );
}
