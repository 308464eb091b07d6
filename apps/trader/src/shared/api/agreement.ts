import type { RecordSignedAgreementInput, SaveAgreementInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

const agreementKeys = traderKeys('agreements');

/** 点价协议 (docs/agreement.md): the versions, the customers' standing, a new version, a signed record. */
export function agreementApi({ call }: TraderTransport) {
  return {
    agreements: () => call('agreements', undefined),
    saveAgreement: (input: SaveAgreementInput) => call('saveAgreement', input),
    recordSignedAgreement: (input: RecordSignedAgreementInput) => call('recordSignedAgreement', input),
  };
}

export function useAgreements() {
  const api = useCalls(agreementApi);
  return useQuery({ queryKey: agreementKeys.all, queryFn: api.agreements });
}

export function useSaveAgreement() {
  const api = useCalls(agreementApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveAgreementInput) => api.saveAgreement(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: agreementKeys.all }),
  });
}

export function useRecordSignedAgreement() {
  const api = useCalls(agreementApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordSignedAgreementInput) => api.recordSignedAgreement(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: agreementKeys.all }),
  });
}
