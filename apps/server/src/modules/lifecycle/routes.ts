import { pricerRoutes, traderRoutes } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { configuredFixingTime, watchAverageFixings } from './average';
import { extendDeadline } from './extend';
import { rollContract } from './roll';
import { lastPriceFrom } from '../margin/market';
import { contractHistory, contractSchedule } from './views';

const tags = ['trader'];

/** A contract's whole life (issue 32): 转月, 延期, and the schedule of 均价点价; its history in one list. */
export const lifecycle: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(
      app,
      traderRoutes.rollContract,
      async ({ req, body }) =>
        rollContract(db, await trader.tenantOf(req), trader.sub(req), body, new Date(), lastPriceFrom(ctx)),
      { tags },
    );
    serve(
      app,
      traderRoutes.extendDeadline,
      async ({ req, body }) => extendDeadline(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      traderRoutes.contractSchedule,
      async ({ req, body }) =>
        contractSchedule(db, { tenantId: await trader.tenantOf(req) }, body.contract_id, configuredFixingTime()),
      { tags },
    );
    serve(
      app,
      traderRoutes.contractHistory,
      async ({ req, body }) => contractHistory(db, { tenantId: await trader.tenantOf(req) }, body.contract_id),
      { tags },
    );
  },
  pricer(app, ctx, pricer) {
    const { db } = ctx;
    serve(app, pricerRoutes.contractSchedule, ({ req, body }) =>
      contractSchedule(db, pricer.who(req), body.contract_id, configuredFixingTime()),
    );
    serve(app, pricerRoutes.contractHistory, ({ req, body }) => contractHistory(db, pricer.who(req), body.contract_id));
  },
  jobs(ctx) {
    // 均价点价: each trading day's share at AVERAGE_FIXING_TIME, exactly once (docs/fixing.md).
    return [
      watchAverageFixings({
        db: ctx.db,
        events: ctx.tradingPort,
        fixingTime: configuredFixingTime(),
        logger: ctx.logger,
      }),
    ];
  },
};
