import type { AuditRow } from '@pfp/contract';
import { useServerTable, type ServerTableParams } from '@pfp/data-table';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from './context';

/** Exposure moves with every fill: refreshed like the order stream. */
export const EXPOSURE_REFRESH_MS = 10_000;

/** docs/fixing.md: the hooks of the business pages. */
export function useExposure() {
  const api = useApi();
  return useQuery({ queryKey: ['trader', 'exposure'], queryFn: api.exposure, refetchInterval: EXPOSURE_REFRESH_MS });
}

/** Loads one price confirmation (the order rows' 确认单). */
export function useConfirmationLoader() {
  return useApi().confirmation;
}

/** Downloads a statement. */
/** The audit log's xlsx download (issue 30). */
export function useExportAuditLog() {
  return useApi().exportAuditLog;
}

export function useExportFixings() {
  return useApi().exportFixings;
}

/** The audit log table: 20 a page, newest first, over a date range (a new range remounts the table). */
export function useAuditTable(
  range: { start_date?: string; end_date?: string },
  options: { filterConfigs: Parameters<typeof useServerTable<AuditRow>>[0]['filterConfigs']; pageSize: number },
) {
  const api = useApi();
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
