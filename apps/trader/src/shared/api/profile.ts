import { isHttpError } from '@pfp/api-client';
import type { ProfileInput, TraderProfile } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** SPEC §7/§9: the gateway's status is polled. */
export const STATUS_POLL_MS = 10_000;

const profileKeys = traderKeys('my-self');
const statusKeys = traderKeys('tqsdk-status');

/** The company profile and its futures gateway (SPEC §5, the settings dialog). */
export function profileApi({ call }: TraderTransport) {
  return {
    /** The trader's company profile; null when none is saved yet (404 is not an error). */
    async mySelf(): Promise<TraderProfile | null> {
      try {
        return await call('mySelf', undefined);
      } catch (err) {
        if (isHttpError(err) && err.status === 404) return null;
        throw err;
      }
    },
    tqsdkStatus: () => call('tqsdkStatus', undefined),
    saveProfile: (input: ProfileInput) => call('saveProfile', input),
  };
}

/** The company profile: null while none is saved (my-self answers 404); any other failure is the error. */
export function useProfile() {
  const api = useCalls(profileApi);
  const query = useQuery({ queryKey: profileKeys.all, queryFn: api.mySelf });
  return { profile: query.data ?? null, loading: query.isPending, error: query.error };
}

export type ConnectionState = 'ok' | 'error';

/** The tenant's gateway, polled every 10 s but not while the settings dialog is open (`paused`). */
export function useConnectionStatus(paused: boolean): { state: ConnectionState; message: string | undefined } {
  const api = useCalls(profileApi);
  const query = useQuery({
    queryKey: statusKeys.all,
    queryFn: api.tqsdkStatus,
    refetchInterval: paused ? false : STATUS_POLL_MS,
    enabled: !paused,
  });
  const connected = query.data?.connected === true && !query.isError;
  return {
    state: connected ? 'ok' : 'error',
    message: query.isError ? query.error.message : query.data?.message,
  };
}

// A mutation invalidates what it changed; the invalidation is not awaited (not returned), so the
// caller's toast does not wait for the reload.

/** The first save creates the tenant: every view of the console changes. Resolves once the profile is reloaded. */
export function useSaveProfile() {
  const api = useCalls(profileApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.saveProfile(input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profileKeys.all });
      void queryClient.invalidateQueries();
    },
  });
}
