import { holdForApproval } from '../staff/hold';
import { traderRoutes as api } from '@pfp/contract';
import { accepted, serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { changePricerStatus, pricerDeactivatePreview } from './deactivate';
import { watchDeadlines } from './deadlines';
import { changeContractStatus, contractPausePreview } from './pause';

const tags = ['trader'];

/**
 * The trader's controls (docs/fixing.md "Pause and 停用"): 暂停 / 恢复 a contract and 停用 / 启用 a
 * customer, each with the count of what it stops shown first; the fixing deadline's expiry is its job.
 */
export const controls: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(
      app,
      api.updateContractStatus,
      async ({ req, body }) =>
        changeContractStatus(db, await trader.tenantOf(req), trader.sub(req), body, ctx.tradingPort),
      { tags },
    );
    serve(
      app,
      api.contractPausePreview,
      async ({ req, body }) => contractPausePreview(db, await trader.tenantOf(req), body.contract_id),
      { tags },
    );
    serve(
      app,
      api.updatePricerStatus,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'update-pricer-status',
          body: body,
          // No trading port: the dry run tells no one (only re-activation is held; it cancels nothing).
          check: (tx) => changePricerStatus(tx, tenantId, trader.sub(req), body),
        });
        if (held !== undefined) return accepted(held);
        return changePricerStatus(db, tenantId, trader.sub(req), body, ctx.tradingPort);
      },
      { tags },
    );
    serve(
      app,
      api.pricerDeactivatePreview,
      async ({ req, body }) => pricerDeactivatePreview(db, await trader.tenantOf(req), body.user_id),
      { tags },
    );
  },
  jobs(ctx) {
    // Contracts past their fixing deadline expire at start-up, before trading starts (an order of an
    // expired contract is cancelled, never sent), and every 30 s while running (docs/fixing.md).
    const deadlines = watchDeadlines({ db: ctx.db, events: ctx.tradingPort, logger: ctx.logger });
    return [{ start: () => deadlines.runOnce(), stop: () => deadlines.stop() }];
  },
};
