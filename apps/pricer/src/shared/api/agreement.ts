import { isHttpError } from '@pfp/api-client';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call } from './call';
import { customerKeys } from './keys';

const agreementKeys = customerKeys('agreement');

/** 点价协议 (docs/agreement.md): the current version, this customer's acceptance, and accepting it. */
export const agreementApi = {
  agreement: (signal?: AbortSignal) => call('agreement', undefined, signal),
  accept: (version: number) => call('acceptAgreement', { version }),
};

/** The error code of a fix refused before the agreement is accepted (the banner then shows). */
export const AGREEMENT_REQUIRED = 'agreement_required';

export function useAgreement(userId: number) {
  return useQuery({
    queryKey: agreementKeys(userId).all,
    queryFn: ({ signal }) => agreementApi.agreement(signal),
    enabled: userId > 0,
    staleTime: 60_000,
  });
}

/**
 * A fix or 条件单 refused for the agreement reads it again (the trader may have required a new version
 * meanwhile): the layout's banner with the link to it then shows.
 */
export function onAgreementRefusal(queryClient: QueryClient, userId: number) {
  return (error: unknown) => {
    if (isHttpError(error) && error.serverCode === AGREEMENT_REQUIRED)
      void queryClient.invalidateQueries({ queryKey: agreementKeys(userId).all });
  };
}

export function useAcceptAgreement(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => agreementApi.accept(version),
    onSuccess: (data) => queryClient.setQueryData(agreementKeys(userId).all, data),
  });
}
