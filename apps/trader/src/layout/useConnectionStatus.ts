import { useQuery } from '@tanstack/react-query';
import { queryKeys, useApi } from '../api';

/** SPEC §7: polled every 10 s, not while the settings dialog is open. */
export const STATUS_POLL_MS = 10_000;

export type ConnectionState = 'ok' | 'error';

export function useConnectionStatus(paused: boolean): { state: ConnectionState; message: string | undefined } {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.tqsdkStatus,
    queryFn: api.tqsdkStatus,
    refetchInterval: paused ? false : STATUS_POLL_MS,
    refetchIntervalInBackground: false,
    enabled: !paused,
  });
  const connected = query.data?.connected === true && !query.isError;
  return {
    state: connected ? 'ok' : 'error',
    message: query.isError ? query.error.message : query.data?.message,
  };
}
