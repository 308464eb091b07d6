import { Button } from '@pfp/mantine';
import type { ConditionalRow } from '@pfp/contract';
import { DataTable, filterConfigsOf } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useCallback, useMemo } from 'react';
import { errorText, useCancelConditional, useCancellingConditionals, useConditionalTable } from '../shared/api';
import { PageLayout } from '../shared/PageLayout';
import { TONE } from '../shared/tones';
import { CONDITIONAL_ACTIONS_WIDTH, CONDITIONAL_COLUMNS } from './conditionalColumns';

const k = zh.conditional;

/** 20 a page, newest first, refreshed every 10 s like the order stream. */
export const CONDITIONAL_PAGE_SIZE = 20;

/** /trader/conditional: every conditional order of the tenant, with 撤销 while it waits. */
export function ConditionalPage() {
  const filterConfigs = useMemo(() => filterConfigsOf(CONDITIONAL_COLUMNS), []);
  const table = useConditionalTable({
    filterConfigs,
    initialPageSize: CONDITIONAL_PAGE_SIZE,
    initialSorting: [{ field: 'id', ascending: false }],
  });
  const { mutateAsync: cancelAsync } = useCancelConditional();
  const cancelling = useCancellingConditionals();

  const cancel = useCallback(
    async (row: ConditionalRow) => {
      try {
        await cancelAsync(row.id);
        notify(k.cancelled, 'success');
      } catch (err) {
        notify(errorText(err), 'error');
      }
    },
    [cancelAsync],
  );

  const renderRowActions = useCallback(
    (row: ConditionalRow) => {
      if (row.status !== 'WAITING') return null;
      const busy = cancelling.includes(row.id);
      return (
        <Button
          size="compact-xs"
          color={TONE.danger}
          variant="outline"
          disabled={busy}
          onClick={() => void cancel(row)}
          aria-label={k.cancelFor(row.id)}
          data-testid={`cancel-conditional-${row.id}`}
        >
          {busy ? k.cancelling : k.cancel}
        </Button>
      );
    },
    [cancel, cancelling],
  );

  return (
    <PageLayout subtitle={k.consoleSubtitle}>
      <div data-testid="conditional-card">
        <DataTable<ConditionalRow>
          controller={table}
          columns={CONDITIONAL_COLUMNS}
          title={k.consoleTitle}
          description={k.consoleDescription}
          renderRowActions={renderRowActions}
          actionsColumnWidth={CONDITIONAL_ACTIONS_WIDTH}
        />
      </div>
    </PageLayout>
  );
}
