import { downloadFile, type AuthError, type HttpClient, type TokenProvider } from '@pfp/api-client';
import type { AuditLogRequest, AuditRow, Confirmation, Exposure, ViewPage } from '@pfp/contract';
import type { ConfirmationData, StatementRequest } from '@pfp/ui';

const BASE = '/api/trader';

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

const dataOf = <T>(answer: unknown): T =>
  typeof answer === 'object' && answer !== null && 'data' in answer
    ? ((answer as { data: T }).data as T)
    : (answer as T);

/** The business calls of docs/fixing.md: confirmations, exposure, statements, audit log (the contract's routes). */
export function fixingApi(http: HttpClient, files?: FileAccess) {
  return {
    confirmation: async (orderId: number): Promise<ConfirmationData> =>
      dataOf<Confirmation>(await http.view(`${BASE}/view/confirmation`, { order_id: orderId })),
    exposure: async () => dataOf<Exposure>(await http.view(`${BASE}/view/exposure`)),
    auditLog: async (params: AuditLogRequest, signal?: AbortSignal) =>
      dataOf<ViewPage<AuditRow>>(
        await http.request(`${BASE}/view/audit-log`, { method: 'POST', body: params, ...(signal ? { signal } : {}) }),
      ),
    /** Downloads the filtered audit log as xlsx (issue 30); resolves with the saved file's name. */
    exportAuditLog: (q: AuditExportRequest) =>
      downloadFile({
        path: `${BASE}/export/audit-log`,
        query: { ...q },
        getToken: files?.getToken ?? (() => ''),
        ...(files?.onAuthError ? { onAuthError: files.onAuthError } : {}),
        fallbackName: 'audit.xlsx',
      }),
    /** Downloads the statement; resolves with the saved file's name. */
    exportFixings: (q: StatementRequest) =>
      downloadFile({
        path: `${BASE}/export/fixings`,
        query: { ...q },
        getToken: files?.getToken ?? (() => ''),
        ...(files?.onAuthError ? { onAuthError: files.onAuthError } : {}),
        fallbackName: `fixings_${q.start_date}_${q.end_date}.${q.format}`,
      }),
  };
}
