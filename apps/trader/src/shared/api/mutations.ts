import { usePendingVariables } from '@pfp/api-client/query';
import type {
  CreateContractInput,
  CreatePricerInput,
  ProfileInput,
  UpdateContractStatusInput,
  UpdatePricerStatusInput,
  UpdatePricerProfileInput,
} from '@pfp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from './context';
import { conditionalKeys } from './conditional';
import { traderKeys } from './keys';

// A mutation invalidates what it changed; the invalidation is not awaited (not returned), so the
// caller's toast does not wait for the reload.

/** The first save creates the tenant: every view of the console changes. Resolves once the profile is reloaded. */
export function useSaveProfile() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.saveProfile(input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: traderKeys.profile });
      void queryClient.invalidateQueries();
    },
  });
}

export function useCancelOrder() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: traderKeys.cancelOrder,
    mutationFn: (orderId: number) => api.cancelOrder(orderId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: traderKeys.orders }),
  });
}

/** The ids of the orders whose cancel is on its way. */
export const useCancellingOrders = () => usePendingVariables<number>(traderKeys.cancelOrder);

export function useUpdateContractStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: traderKeys.updateContractStatus,
    mutationFn: (input: UpdateContractStatusInput) => api.updateContractStatus(input),
    // A pause cancels the contract's orders and suspends its 条件单 (issue 30): those lists change too.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: traderKeys.contracts });
      void queryClient.invalidateQueries({ queryKey: traderKeys.orders });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

/** The ids of the contracts whose status change is on its way. */
export const useUpdatingContracts = () =>
  usePendingVariables<UpdateContractStatusInput>(traderKeys.updateContractStatus).map((v) => v.contract_id);

export function useCreateContract() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateContractInput) => api.createContract(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: traderKeys.contracts }),
  });
}

export function useCreatePricer() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePricerInput) => api.createPricer(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: traderKeys.users }),
  });
}

export function useResetPricerPassword() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ userId, newPassword }: { userId: number; newPassword: string }) =>
      api.resetPricerPassword(userId, newPassword),
  });
}

/** 停用 / 启用 a customer: the list and its stats change. */
export function useUpdatePricerStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdatePricerStatusInput) => api.updatePricerStatus(input),
    // A 停用 cancels the customer's orders and 条件单 (issue 30): those lists change too.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: traderKeys.users });
      void queryClient.invalidateQueries({ queryKey: traderKeys.orders });
      void queryClient.invalidateQueries({ queryKey: traderKeys.contracts });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

/** The customer's identity and confirm-sheet switch (issue 29): the list changes. */
export function useUpdatePricerProfile() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdatePricerProfileInput) => api.updatePricerProfile(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: traderKeys.users }),
  });
}

/** 解除登录锁定: the customer's failed logins are forgotten (nothing listed changes). */
export function useUnlockPricer() {
  const api = useApi();
  return useMutation({ mutationFn: (userId: number) => api.unlockPricer(userId) });
}
