import { downloadFile, type QueryParams } from '@pfp/api-client';
import type { AuditLogRequest, AuditRow, Confirmation } from '@pfp/contract';
import { traderPaths } from '@pfp/contract/paths';
import { useServerTable, type ServerTableParams } from '@pfp/data-table';
import { statementFileName, type StatementRequest } from '@pfp/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** Exposure moves with every fill: refreshed like the order stream. */
export const EXPOSURE_REFRESH_MS = 10_000;

export const exposureKeys = traderKeys('exposure');

/** GET /api/trader/export/audit-log's query (the contract's auditExportQuery, as strings). */
export interface AuditExportRequest {
  action?: string;
  actor?: string;
  start_date?: string;
  end_date?: string;
  filter?: string;
}

/** The business calls of docs/fixing.md: confirmations, exposure, statements, audit log. */
export function fixingApi({ call, files }: TraderTransport) {
  const download = (path: string, query: QueryParams, fallbackName: string) =>
    downloadFile({
      path,
      query,
      getToken: files?.getToken ?? (() => ''),
      ...(files?.onAuthError ? { onAuthError: files.onAuthError } : {}),
      fallbackName,
    });
  return {
    confirmation: (orderId: number): Promise<Confirmation> => call('confirmation', { order_id: orderId }),
    exposure: () => call('exposure', undefined),
    auditLog: (params: AuditLogRequest, signal?: AbortSignal) => call.page('auditLog', params, signal),
    /** Downloads the filtered audit log as xlsx (issue 30); resolves with the saved file's name. */
    exportAuditLog: (q: AuditExportRequest) => download(traderPaths.exportAuditLog.path, { ...q }, 'audit.xlsx'),
    /** Downloads the statement (a file, not an envelope); resolves with the saved file's name. */
    exportFixings: (q: StatementRequest) => download(traderPaths.exportFixings.path, { ...q }, statementFileName(q)),
  };
}

/** docs/fixing.md: the hooks of the business pages. */
export function useExposure() {
  const api = useCalls(fixingApi);
  return useQuery({ queryKey: exposureKeys.all, queryFn: api.exposure, refetchInterval: EXPOSURE_REFRESH_MS });
}

/** Loads one price confirmation (the order rows' 确认单). */
export function useConfirmationLoader() {
  return useCalls(fixingApi).confirmation;
}

/** The audit log's xlsx download (issue 30). */
export function useExportAuditLog() {
  return useCalls(fixingApi).exportAuditLog;
}

/** Downloads a statement. */
export function useExportFixings() {
  return useCalls(fixingApi).exportFixings;
}

/** The audit log table: 20 a page, newest first, over a date range (a new range remounts the table). */
export function useAuditTable(
  range: { start_date?: string; end_date?: string },
  options: { filterConfigs: Parameters<typeof useServerTable<AuditRow>>[0]['filterConfigs']; pageSize: number },
) {
  const api = useCalls(fixingApi);
  const fetchPage = useMemo(
    () => (params: ServerTableParams, signal: AbortSignal) => api.auditLog({ ...params, ...range }, signal),
    [api, range],
  );
  return useServerTable<AuditRow>({
    fetchPage,
    ...(options.filterConfigs ? { filterConfigs: options.filterConfigs } : {}),
    initialPageSize: options.pageSize,
    initialSorting: [{ field: 'id', ascending: false }],
  });
}
