import { useQuery } from '@tanstack/react-query';
import { call } from './call';
import { customerKeys } from './keys';

const fundsKeys = customerKeys('funds');

/** The customer's account and latest funds entries (docs/margin.md). */
export const marginApi = {
  myFunds: (signal?: AbortSignal) => call('myFunds', undefined, signal),
};

/** The customer's account and latest funds entries (the history's 资金流水). */
export function useMyFunds(userId: number) {
  return useQuery({
    queryKey: fundsKeys(userId).all,
    queryFn: ({ signal }) => marginApi.myFunds(signal),
    staleTime: 30_000,
  });
}
