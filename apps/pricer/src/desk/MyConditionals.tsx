import { serverMessage } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useCancelConditional, useCancellingConditionals, useMyConditionals } from '../shared/api';
import { ConditionalOrdersTable } from './ConditionalOrdersTable';
import { DESK_ORDER_LIMIT } from './constants';
import { DeskList } from './DeskList';

const k = zh.conditional;
const a = zh.conditionalAll;

/**
 * Every 条件单 of the customer across their contracts (issue 29): waiting ones with 撤销, past ones
 * with their state; a triggered one names the order it created (its fill is in the history above).
 */
export function MyConditionals({ userId, compact }: { userId: number; compact: boolean }) {
  const list = useMyConditionals(userId, DESK_ORDER_LIMIT);
  const { mutateAsync: cancelConditional } = useCancelConditional(userId);
  const cancelling = new Set(useCancellingConditionals());
  async function cancel(id: number) {
    try {
      await cancelConditional(id);
      notify(k.cancelled, 'success');
    } catch (error) {
      notify(serverMessage(error) ?? zh.pricer.cancelFailed, 'error');
    }
  }
  return (
    <DeskList
      title={a.title}
      subtitle={a.subtitle}
      total={list.data?.total_count ?? 0}
      compact={compact}
      testId="my-conditionals"
    >
      <ConditionalOrdersTable
        rows={list.data?.items ?? []}
        loading={list.isPending}
        compact={compact}
        cancelling={cancelling}
        onCancel={(row) => void cancel(row.id)}
        showContract
        label={a.title}
      />
    </DeskList>
  );
}
