import type {
  AddAuthorisedPricerInput,
  ResetAuthorisedPricerPasswordInput,
  SetAuthorisedPricerActiveInput,
  UpdateAuthorisedPricerInput,
} from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

const personKeys = traderKeys('authorised-pricers');

/** 授权点价人 (docs/authorised-pricers.md): a customer's persons, adding, editing, 停用 and 恢复. */
export function authorisedPricersApi({ call }: TraderTransport) {
  return {
    list: (userId: number) => call('authorisedPricers', { user_id: userId }),
    add: (input: AddAuthorisedPricerInput) => call('addAuthorisedPricer', input),
    update: (input: UpdateAuthorisedPricerInput) => call('updateAuthorisedPricer', input),
    setActive: (input: SetAuthorisedPricerActiveInput) => call('setAuthorisedPricerActive', input),
    resetPassword: (input: ResetAuthorisedPricerPasswordInput) => call('resetAuthorisedPricerPassword', input),
  };
}

export function useAuthorisedPricers(userId: number | null) {
  const api = useCalls(authorisedPricersApi);
  return useQuery({
    queryKey: [...personKeys.all, userId],
    queryFn: () => api.list(userId!),
    enabled: userId !== null,
  });
}

function usePersonMutation<I>(run: (api: ReturnType<typeof authorisedPricersApi>, input: I) => Promise<unknown>) {
  const api = useCalls(authorisedPricersApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(api, input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: personKeys.all }),
  });
}

export const useAddAuthorisedPricer = () => usePersonMutation((api, input: AddAuthorisedPricerInput) => api.add(input));
export const useUpdateAuthorisedPricer = () =>
  usePersonMutation((api, input: UpdateAuthorisedPricerInput) => api.update(input));
export const useSetAuthorisedPricerActive = () =>
  usePersonMutation((api, input: SetAuthorisedPricerActiveInput) => api.setActive(input));
export const useResetAuthorisedPricerPassword = () =>
  usePersonMutation((api, input: ResetAuthorisedPricerPasswordInput) => api.resetPassword(input));
