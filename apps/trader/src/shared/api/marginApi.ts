import type { HttpClient } from '@pfp/api-client';
import { routeCaller } from '@pfp/api-client';
import type {
  ContractRow,
  FundsEntry,
  RecordFundsInput,
  SetCreditLineInput,
  SettleLotsInput,
  traderRoutes,
  ViewPage,
} from '@pfp/contract';
import { traderPaths } from '@pfp/contract/paths';

/** The calls of 资金与保证金 (docs/margin.md), by the contract's route names. */
export function marginApi(http: HttpClient) {
  const call = routeCaller<typeof traderRoutes>(http, traderPaths);
  return {
    pricerAccounts: () => call('pricerAccounts', undefined),
    fundsLedger: (pricerId: number) =>
      call('fundsLedger', { pricer_id: pricerId, slice_start: 0, slice_end: 100 }) as Promise<ViewPage<FundsEntry>>,
    recordFunds: (input: RecordFundsInput) => call('recordFunds', input),
    setCreditLine: (input: SetCreditLineInput) => call('setCreditLine', input),
    /** A customer's contracts with fixed lots not yet settled (the settle dialog). */
    unsettledContracts: async (pricerId: number) => {
      const page = (await call('contracts', {
        filter: `pricer_id = ${pricerId}`,
        slice_start: 0,
        slice_end: 100,
      })) as ViewPage<ContractRow>;
      return page.items.filter((c) => c.executed_quantity > (c.settled_quantity ?? 0));
    },
    settleLots: (input: SettleLotsInput) => call('settleLots', input),
  };
}
