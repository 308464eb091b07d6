import { StatementExportButton } from '@pfp/ui';
import { errorText, useAllUsers, useExportFixings } from '../shared/api';

/** 导出对账单 on the customers page: every customer or one, over a date range (docs/fixing.md). */
export function TraderStatementExport() {
  const customers = useAllUsers(true);
  const download = useExportFixings();
  return <StatementExportButton customers={customers.data ?? []} download={download} describeError={errorText} />;
}
