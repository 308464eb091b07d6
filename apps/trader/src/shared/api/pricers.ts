import type {
  CreateCustomerInput,
  CreatePricerInput,
  PricerUserRow,
  UpdatePricerProfileInput,
  UpdatePricerStatusInput,
  ViewRequest,
} from '@pfp/contract';
import { useServerTable } from '@pfp/data-table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { byStatus, type StatusGroup, type TraderTransport } from './call';
import { conditionalKeys } from './conditional';
import { contractKeys } from './contracts';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { orderKeys, type TableOptions } from './orders';

/** SPEC §9: the customer stats are polled. */
export const USER_STATS_REFETCH_MS = 30_000;

/** Everything read of the company's customers (pages, stats, the picker, previews); a change reloads them all. */
const userKeys = traderKeys('users');

/** The company's customers (SPEC §7 pricer users; issues 29, 30). */
export function pricersApi({ call }: TraderTransport) {
  return {
    users: (params: ViewRequest, signal?: AbortSignal) => call.page('users', params, signal),
    userStats: () => byStatus(call, 'users', [{ field: 'id', op: 'count' }]),
    /** Every customer, for the contract dialog's picker. */
    allUsers: () => call.page('users', { sort_fields: [{ field: 'username', ascending: true }] }).then((p) => p.items),
    createPricer: (input: CreateCustomerInput) => call('createPricerUser', input),
    resetPricerPassword: (userId: number, newPassword: string) =>
      call('resetPricerPassword', { user_id: userId, new_password: newPassword }),
    updatePricerStatus: (input: UpdatePricerStatusInput) => call('updatePricerStatus', input),
    /** What a 停用 would stop (issue 30). */
    pricerDeactivatePreview: (userId: number) => call('pricerDeactivatePreview', { user_id: userId }),
    /** Forget the customer's failed logins (issue 30). */
    unlockPricer: (userId: number) => call('unlockPricer', { user_id: userId }),
    /** 客户全称, 联系人, 手机号 and the confirm sheet (issue 29). */
    updatePricerProfile: (input: UpdatePricerProfileInput) => call('updatePricerProfile', input),
  };
}

export function useUserStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useCalls(pricersApi);
  return useQuery({
    queryKey: userKeys.of('stats'),
    queryFn: api.userStats,
    refetchInterval: USER_STATS_REFETCH_MS,
    select,
  });
}

export function useUsersTable(options: TableOptions<PricerUserRow>) {
  const api = useCalls(pricersApi);
  return useServerTable<PricerUserRow>({ ...options, queryKey: userKeys.of('table'), fetchPage: api.users });
}

/** The contract dialog's customer picker: loaded only while it is open for a new contract. */
export function useAllUsers(enabled: boolean) {
  const api = useCalls(pricersApi);
  return useQuery({ queryKey: userKeys.of('all'), queryFn: api.allUsers, enabled });
}

/** What deactivating the customer would stop, read fresh each time its dialog opens (null: closed). */
export function usePricerDeactivatePreview(userId: number | null) {
  const api = useCalls(pricersApi);
  return useQuery({
    queryKey: userKeys.of('deactivate-preview', userId ?? 0),
    queryFn: () => api.pricerDeactivatePreview(userId!),
    enabled: userId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useCreatePricer() {
  const api = useCalls(pricersApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePricerInput) => api.createPricer(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useResetPricerPassword() {
  const api = useCalls(pricersApi);
  return useMutation({
    mutationFn: ({ userId, newPassword }: { userId: number; newPassword: string }) =>
      api.resetPricerPassword(userId, newPassword),
  });
}

/** 停用 / 启用 a customer: the list and its stats change. */
export function useUpdatePricerStatus() {
  const api = useCalls(pricersApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdatePricerStatusInput) => api.updatePricerStatus(input),
    // A 停用 cancels the customer's orders and 条件单 (issue 30): those lists change too.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

/** The customer's identity and confirm-sheet switch (issue 29): the list changes. */
export function useUpdatePricerProfile() {
  const api = useCalls(pricersApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdatePricerProfileInput) => api.updatePricerProfile(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** 解除登录锁定: the customer's failed logins are forgotten (nothing listed changes). */
export function useUnlockPricer() {
  const api = useCalls(pricersApi);
  return useMutation({ mutationFn: (userId: number) => api.unlockPricer(userId) });
}
