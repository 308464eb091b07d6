import { serverMessage } from '@pfp/api-client';
import {
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  useMediaQuery,
} from '@pfp/mantine';
import type { OrderRow } from '@pfp/contract';
import { DataTable } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { DateField, IconFilter, StatementExportButton } from '@pfp/ui';
import { useCallback, useMemo, useState } from 'react';
import { exportFixings, useHistorySummary, useHistoryTable, useSnapshot } from '../shared/api';
import { useCustomerConfirmation } from '../shared/confirmation/useCustomerConfirmation';
import { MOBILE_QUERY, TABLET_QUERY } from '../shared/layout';
import { PageTitle } from '../shared/PageTitle';
import { useSession } from '../shared/session/useSession';
import { historyColumns } from './columns';
import {
  countActive,
  dateRangeError,
  describeFilter,
  EMPTY_FILTER,
  historyParams,
  STATUS_OPTIONS,
  summarise,
  summaryText,
  type HistoryFilter,
} from './historyFilter';
import { FundsCard } from './FundsCard';

const t = zh.pricer;

/** SPEC §9: history page size 50, options 20, 50, 100. */
const PAGE_SIZE = 50;
const PAGE_SIZE_OPTIONS = [20, 50, 100] as const;

const exportError = (error: unknown) => serverMessage(error) ?? zh.fixing.exports.unknownError;

/** SPEC §2 "History page": a collapsible filter panel and the paged table with a summary line. */
export function HistoryPage() {
  const session = useSession();
  const compact = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  // Below 1024 px the one-value cells and the 操作 column do not fit (at 820 px 点价价格 was cut and 状态 hidden
  // behind the sticky column): a tablet takes the two-line cells too, with 确认单 in the status cell.
  const tablet = useMediaQuery(TABLET_QUERY, false, { getInitialValueInEffect: false });
  const twoLine = compact || tablet;
  const [filter, setFilter] = useState<HistoryFilter>(EMPTY_FILTER);
  const [open, setOpen] = useState(!compact);
  const userId = session?.user.user_id ?? 0;

  // The contracts for the filter (the desk's snapshot, not polled here).
  const snapshot = useSnapshot(userId, false);
  const contracts = useMemo(() => snapshot.data?.contracts ?? [], [snapshot.data]);

  const conditions = useMemo(() => historyParams(filter), [filter]);
  const table = useHistoryTable(userId, conditions, { initialPageSize: PAGE_SIZE });
  const summary = useHistorySummary(userId, conditions, summarise).data;
  const { open: openConfirmation, modal: confirmationModal } = useCustomerConfirmation(userId);
  const columns = useMemo(() => historyColumns(twoLine, openConfirmation), [twoLine, openConfirmation]);
  const renderRowActions = useCallback(
    (o: OrderRow) =>
      Number(o.volume_traded) > 0 ? (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => openConfirmation(o.id)}
          aria-label={zh.fixing.confirmation.openFor(o.id)}
          data-testid={`confirmation-${o.id}`}
        >
          {zh.fixing.confirmation.open}
        </Button>
      ) : null,
    [openConfirmation],
  );

  /** Any change of the filter goes back to page 1 (the new conditions load by themselves). */
  function update(next: HistoryFilter) {
    setFilter(next);
    table.setPage(1);
  }
  const set = (key: keyof HistoryFilter) => (value: string) => update({ ...filter, [key]: value });

  const active = countActive(filter);
  const rangeError = dateRangeError(filter);

  return (
    <Stack gap="sm">
      <PageTitle title={t.history} subtitle={compact ? undefined : t.historySubtitle} align="flex-end">
        <StatementExportButton download={exportFixings} describeError={exportError} />
      </PageTitle>

      <Card withBorder radius="md" p={compact ? 'sm' : 'md'}>
        <Stack gap="xs">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap={6} wrap="nowrap">
              <IconFilter size={18} aria-hidden />
              <Text fw={600}>{t.filterPanel}</Text>
              <Badge
                circle={active < 10}
                color={active > 0 ? 'blue' : 'gray'}
                variant={active > 0 ? 'filled' : 'light'}
                aria-label={t.activeFilters(active)}
                data-testid="active-filter-count"
              >
                {active}
              </Badge>
            </Group>
            <Group gap={6} wrap="nowrap">
              <Button variant="subtle" size="compact-sm" onClick={() => update(EMPTY_FILTER)} disabled={active === 0}>
                {t.clear}
              </Button>
              <Button
                variant="default"
                size="compact-sm"
                onClick={() => setOpen((o) => !o)}
                aria-expanded={open}
                aria-controls="pricer-history-filters"
              >
                {open ? t.collapse : t.filters}
              </Button>
            </Group>
          </Group>
          <Text size="sm" c="dimmed" data-testid="filter-description">
            {t.currentFilter}
            {describeFilter(filter, contracts)}
          </Text>
          <Collapse expanded={open} id="pricer-history-filters">
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" pt={4}>
              <DateField
                label={t.startDate}
                value={filter.start_date}
                max={filter.end_date || undefined}
                onChange={set('start_date')}
              />
              <DateField
                label={t.endDate}
                value={filter.end_date}
                min={filter.start_date || undefined}
                error={rangeError}
                onChange={set('end_date')}
              />
              <NativeSelect
                label={t.contract}
                value={filter.contract_id}
                onChange={(e) => set('contract_id')(e.currentTarget.value)}
                data={[
                  { value: 'all', label: t.allContracts },
                  ...contracts.map((c) => ({ value: String(c.id), label: c.name })),
                ]}
              />
              <NativeSelect
                label={t.col.status}
                value={filter.status}
                onChange={(e) => set('status')(e.currentTarget.value)}
                data={[
                  { value: 'all', label: t.all },
                  ...STATUS_OPTIONS.map((s) => ({ value: s, label: t.status[s] })),
                ]}
              />
            </SimpleGrid>
          </Collapse>
        </Stack>
      </Card>

      <DataTable<OrderRow>
        controller={table}
        columns={columns}
        title={t.historyTitle}
        description={<span data-testid="history-summary">{summary ? summaryText(summary) : zh.table.loading}</span>}
        ariaLabel={t.historyTitle}
        enableGlobalSearch={false}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        density={compact ? 'compact' : 'default'}
        // On a phone or a tablet the four columns fill the width: the confirmation opens from the status cell.
        {...(twoLine ? {} : { renderRowActions })}
      />
      {confirmationModal}
      <FundsCard userId={userId} />
    </Stack>
  );
}
