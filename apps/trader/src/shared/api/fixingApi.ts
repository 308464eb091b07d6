import { downloadFile, type AuthError, type TokenProvider } from '@pfp/api-client';
import type { AuditLogRequest, AuditRow, Confirmation, ViewPage } from '@pfp/contract';
import { traderPaths } from '@pfp/contract/paths';
import { statementFileName, type StatementRequest } from '@pfp/ui';
import type { TraderCall } from './client';

/** GET /api/trader/export/audit-log's query (the contract's auditExportQuery, as strings). */
export interface AuditExportRequest {
  action?: string;
  actor?: string;
  start_date?: string;
  end_date?: string;
  filter?: string;
}

/** How authenticated file downloads get their token (the JSON client keeps its own). */
export interface FileAccess {
  getToken: TokenProvider;
  onAuthError?: (err: AuthError) => void;
}

/** The business calls of docs/fixing.md: confirmations, exposure, statements, audit log (the contract's routes). */
export function fixingApi(call: TraderCall, files?: FileAccess) {
  return {
    confirmation: (orderId: number): Promise<Confirmation> => call('confirmation', { order_id: orderId }),
    exposure: () => call('exposure', undefined),
    // The contract types a view's rows as records; the audit log's are AuditRows.
    auditLog: (params: AuditLogRequest, signal?: AbortSignal) =>
      call('auditLog', params, signal) as Promise<ViewPage<AuditRow>>,
    /** Downloads the filtered audit log as xlsx (issue 30); resolves with the saved file's name. */
    exportAuditLog: (q: AuditExportRequest) =>
      downloadFile({
        path: traderPaths.exportAuditLog.path,
        query: { ...q },
        getToken: files?.getToken ?? (() => ''),
        ...(files?.onAuthError ? { onAuthError: files.onAuthError } : {}),
        fallbackName: 'audit.xlsx',
      }),
    /** Downloads the statement (a file, not an envelope); resolves with the saved file's name. */
    exportFixings: (q: StatementRequest) =>
      downloadFile({
        path: traderPaths.exportFixings.path,
        query: { ...q },
        getToken: files?.getToken ?? (() => ''),
        ...(files?.onAuthError ? { onAuthError: files.onAuthError } : {}),
        fallbackName: statementFileName(q),
      }),
  };
}
