import { Badge, Button, Group, Stack, Text } from '@pfp/mantine';
import { DataTable, filterConfigsOf, type DataTableColumn } from '@pfp/data-table';
import { describeUserAgent, zh } from '@pfp/i18n';
import { useMemo, useState } from 'react';
import type { AuditRow as AuditEntry } from '@pfp/contract';
import { DayInput, notify } from '@pfp/ui';
import { errorText, useAuditTable, useExportAuditLog } from '../shared/api';
import { PageLayout } from '../shared/PageLayout';
import { TONE } from '../shared/tones';
import { auditActionLabel, auditDetails, auditKindLabel } from './auditFormat';

const t = zh.fixing.audit;

/** 20 entries a page, newest first. */
export const AUDIT_PAGE_SIZE = 20;

const KIND_COLOR: Record<string, string> = { trader: TONE.info, pricer: TONE.success, system: TONE.muted };

export const AUDIT_COLUMNS: DataTableColumn<AuditEntry>[] = [
  { field: 'created_at', header: t.time, kind: 'date', showSeconds: true, width: 180 },
  { field: 'actor_name', header: t.actor, width: 160, filter: { type: 'text' } },
  {
    field: 'actor_kind',
    header: t.actorKind,
    kind: 'badge',
    width: 100,
    render: (e) => (
      <Badge variant="outline" color={KIND_COLOR[e.actor_kind] ?? TONE.muted}>
        {auditKindLabel(e.actor_kind)}
      </Badge>
    ),
    filter: {
      type: 'select',
      options: Object.keys(t.kinds).map((value) => ({ value, label: auditKindLabel(value) })),
    },
  },
  {
    field: 'action',
    header: t.action,
    width: 150,
    accessor: (e) => auditActionLabel(e.action),
    filter: {
      type: 'select',
      options: Object.keys(t.actions).map((value) => ({ value, label: auditActionLabel(value) })),
    },
  },
  { field: 'payload', header: t.details, width: 420, sortable: false, accessor: (e) => auditDetails(e.payload, e) },
  // Where a trader's or customer's action came from (issue 30); the server's own has none.
  { field: 'ip', header: t.ip, width: 130, priority: 2, filter: { type: 'text' }, accessor: (e) => e.ip ?? '-' },
  {
    field: 'user_agent',
    header: t.userAgent,
    width: 200,
    priority: 3,
    sortable: false,
    render: (e) => (
      // The browser in Chinese (issue 30); the raw user-agent, evidence as received, on hover and in the export.
      <Text size="xs" lineClamp={2} title={e.user_agent ? zh.device.rawTitle(e.user_agent) : undefined}>
        {describeUserAgent(e.user_agent)}
      </Text>
    ),
  },
];

function AuditTable({ range }: { range: { start_date?: string; end_date?: string } }) {
  const filterConfigs = useMemo(() => filterConfigsOf(AUDIT_COLUMNS), []);
  const table = useAuditTable(range, { filterConfigs, pageSize: AUDIT_PAGE_SIZE });
  const exportLog = useExportAuditLog();
  const [exporting, setExporting] = useState(false);
  // The rows the table shows (its date range and column filters), as xlsx (issue 30).
  const download = async () => {
    setExporting(true);
    try {
      const name = await exportLog({
        ...range,
        ...(table.filterExpression ? { filter: table.filterExpression } : {}),
      });
      notify(t.exported(name), 'success');
    } catch (err) {
      notify(t.exportFailed(errorText(err)), 'error');
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <Button size="xs" variant="light" onClick={() => void download()} disabled={exporting}>
          {exporting ? t.exporting : t.export}
        </Button>
      </Group>
      <AuditDataTable table={table} />
    </Stack>
  );
}

function AuditDataTable({ table }: { table: ReturnType<typeof useAuditTable> }) {
  return (
    <DataTable<AuditEntry>
      controller={table}
      columns={AUDIT_COLUMNS}
      title={t.tableTitle}
      description={t.tableDescription}
    />
  );
}

/** A range's other end as a bound of the date picker (none while empty). */
const bound = (day: string) => day || undefined;

/** /trader/audit: who created or changed what, and every cancel (the audit log the server writes). */
export function AuditPage() {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const range = useMemo(
    () => ({ ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}) }),
    [start, end],
  );
  return (
    <PageLayout
      subtitle={t.subtitle}
      actions={
        <Group gap="xs" align="flex-end">
          <DayInput
            size="xs"
            label={t.startDate}
            value={start}
            max={bound(end)}
            onChange={setStart}
            testId="audit-start"
          />
          <DayInput size="xs" label={t.endDate} value={end} min={bound(start)} onChange={setEnd} testId="audit-end" />
          <Button
            size="xs"
            variant="default"
            disabled={!start && !end}
            onClick={() => {
              setStart('');
              setEnd('');
            }}
          >
            {t.clear}
          </Button>
        </Group>
      }
    >
      {/* A new range is a new list (page 1). */}
      <AuditTable key={`${start}|${end}`} range={range} />
    </PageLayout>
  );
}
