import { traderRoutes as api } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { AppContext, Capability } from '../context';
import { createContract } from '../contracts/contracts';
import { changePricerStatus } from '../controls/deactivate';
import { unlockLoginOf } from '../customers/routes';
import { unlockPricer } from '../customers/pricers';
import { recordFunds, setCreditLine } from '../margin/ledger';
import { lastPriceFrom } from '../margin/market';
import { settleLots } from '../margin/settle';
import { rollContract } from '../lifecycle/roll';
import { settleFee } from '../statements/fees';
import { approveRequest, listRequests, rejectRequest, type Appliers } from './decide';

const tags = ['trader'];

/**
 * The approvals inbox and its decisions (maker-checker, docs/roles.md): an approved request applies its
 * call as its maker, through the same rules as the call itself, in the approval's transaction.
 */
export const approvals: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    const appliers = appliersOf(ctx);
    serve(
      app,
      api.approvalRequests,
      async ({ req, body }) =>
        listRequests(db, await trader.tenantOf(req), trader.sub(req), req.staffRoles ?? [], body.status),
      { tags },
    );
    serve(
      app,
      api.approveRequest,
      async ({ req, body }) =>
        approveRequest(db, await trader.tenantOf(req), trader.sub(req), body.request_id, appliers),
      { tags },
    );
    serve(
      app,
      api.rejectRequest,
      async ({ req, body }) =>
        rejectRequest(db, await trader.tenantOf(req), trader.sub(req), body.request_id, body.reason),
      { tags },
    );
  },
};

/** Each held call, applied: its body parsed again by the call's own schema, then its own rules. */
function appliersOf(ctx: AppContext): Appliers {
  const lastPrice = lastPriceFrom(ctx);
  return {
    'record-funds': async (tx, c) => {
      const input = api.recordFunds.body.parse(c.body);
      const entry = await recordFunds(tx, c.tenantId, c.maker, input, lastPrice, c.checker);
      return { entry_id: entry.id, balance_after: entry.balance_after };
    },
    'set-credit-line': async (tx, c) => {
      const input = api.setCreditLine.body.parse(c.body);
      await setCreditLine(tx, c.tenantId, c.maker, input);
      return { pricer_id: input.pricer_id, credit_line: input.credit_line };
    },
    'settle-lots': async (tx, c) => {
      const row = await settleLots(tx, c.tenantId, c.maker, api.settleLots.body.parse(c.body));
      return { contract_id: row.id, settled_quantity: row.settled_quantity };
    },
    'unlock-pricer': (tx, c) =>
      unlockPricer(tx, c.tenantId, c.maker, api.unlockPricer.body.parse(c.body).user_id, unlockLoginOf(ctx)),
    'update-pricer-status': async (tx, c) => {
      const row = await changePricerStatus(
        tx,
        c.tenantId,
        c.maker,
        api.updatePricerStatus.body.parse(c.body),
        ctx.tradingPort,
      );
      return { user_id: row.id, status: row.status };
    },
    'create-contract': async (tx, c) => {
      const row = await createContract(
        tx,
        c.tenantId,
        c.maker,
        api.createContract.body.parse(c.body),
        new Date(),
        lastPrice,
      );
      return { contract_id: row.id };
    },
    'roll-contract': async (tx, c) => {
      const input = api.rollContract.body.parse(c.body);
      const { confirmation } = await rollContract(tx, c.tenantId, c.maker, input, new Date(), lastPrice);
      return {
        from_contract_id: confirmation.from_contract_id,
        to_contract_id: confirmation.to_contract_id,
        confirmation_no: confirmation.confirmation_no,
      };
    },
    'settle-fee': async (tx, c) => {
      const row = await settleFee(tx, c.tenantId, c.maker, api.settleFee.body.parse(c.body), lastPrice);
      return { fee_id: row.id, status: row.status };
    },
  };
}
