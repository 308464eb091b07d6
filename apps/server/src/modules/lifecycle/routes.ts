import { pricerRoutes, traderRoutes } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { configuredFixingTime, watchAverageFixings } from './average';
import { watchSettlementBookings } from './settlement';
import { extendDeadline } from './extend';
import { rollContract } from './roll';
import { lastPriceFrom } from '../margin/market';
import { contractHistory, contractSchedule, rollApplications, rollQuote } from './views';
import { acceptRoll, applyRoll, priceRoll } from './applications';
import { LIFECYCLE_SQL } from './sql';

const tags = ['trader'];

/** A contract's whole life (issue 32): 转月, 延期, and the schedule of 均价点价; its history in one list. */
export const lifecycle: Capability = {
  sql: LIFECYCLE_SQL,
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
    // 转月 as the customer's application (issue 42 item 3): the trader lists and prices them.
    serve(
      app,
      traderRoutes.rollApplications,
      async ({ req, body }) => rollApplications(db, { tenantId: await trader.tenantOf(req) }, body),
      { tags },
    );
    serve(
      app,
      traderRoutes.priceRoll,
      async ({ req, body }) => priceRoll(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      traderRoutes.rollQuote,
      async ({ req, body }) => rollQuote(db, { tenantId: await trader.tenantOf(req) }, body, ctx.quote),
      { tags },
    );
  },
  pricer(app, ctx, pricer) {
    const { db } = ctx;
    serve(app, pricerRoutes.contractSchedule, ({ req, body }) =>
      contractSchedule(db, pricer.who(req), body.contract_id, configuredFixingTime()),
    );
    serve(app, pricerRoutes.contractHistory, ({ req, body }) => contractHistory(db, pricer.who(req), body.contract_id));
    // 转月 as the customer's application (issue 42 item 3): apply, see the market and the offer, accept.
    serve(app, pricerRoutes.applyRoll, ({ req, body }) => applyRoll(db, pricer.who(req), body));
    serve(app, pricerRoutes.acceptRoll, ({ req, body }) =>
      acceptRoll(db, pricer.who(req), body.application_id, new Date(), lastPriceFrom(ctx)),
    );
    serve(app, pricerRoutes.myRollApplications, ({ req, body }) => rollApplications(db, pricer.who(req), body));
    serve(app, pricerRoutes.rollQuote, ({ req, body }) => rollQuote(db, pricer.who(req), body, ctx.quote));
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
      // 结算价 average contracts: each trading day's share at the day's settlement price, after the close.
      watchSettlementBookings({
        db: ctx.db,
        settlementPrices: ctx.settlementPrices,
        fillsBooked: ctx.fillsBooked,
        logger: ctx.logger,
      }),
    ];
  },
};
