import type {
  ContractRow,
  FundsEntry,
  RecordFundsInput,
  SetCreditLineInput,
  SettleLotsInput,
  ViewPage,
} from '@pfp/contract';
import type { TraderCall } from './client';

/** The calls of 资金与保证金 (docs/margin.md), by the contract's route names. */
export function marginApi(call: TraderCall) {
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
