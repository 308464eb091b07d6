import { pricerRoutes, traderRoutes } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { accepted, serve } from '../../platform/http/route';
import { holdForApproval } from '../staff/hold';
import type { Capability } from '../context';
import { configuredFixingTime, watchAverageFixings } from './average';
import { watchSettlementBookings } from './settlement';
import { extendDeadline } from './extend';
import { rollContract } from './roll';
import { lastPriceFrom } from '../margin/market';
import { contractHistory, contractSchedule, rollApplications, rollQuote } from './views';
import { acceptRoll, applyRoll, priceRoll, readApplication } from './applications';
import { autoPriceRoll, readRollAutoPricing, setRollAutoPricing } from './autoPricing';
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
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const roll = (on: Kysely<DB>) =>
          rollContract(on, tenantId, trader.sub(req), body, new Date(), lastPriceFrom(ctx));
        // Under the approval policy (docs/roles.md): held for a second person, validated now.
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'roll-contract',
          body,
          check: roll,
        });
        if (held !== undefined) return accepted(held);
        return roll(db);
      },
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
    serve(app, traderRoutes.rollAutoPricing, async ({ req }) => readRollAutoPricing(db, await trader.tenantOf(req)), {
      tags,
    });
    serve(
      app,
      traderRoutes.setRollAutoPricing,
      async ({ req, body }) => setRollAutoPricing(db, await trader.tenantOf(req), trader.sub(req), body),
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
    serve(app, pricerRoutes.applyRoll, async ({ req, body }) => {
      const who = pricer.who(req);
      const applied = await applyRoll(db, who, body);
      // The company's auto rule may price it at once (docs/roles.md); else it waits for the trader.
      const priced = await autoPriceRoll(db, who.tenantId, applied, ctx.quote);
      return priced ? readApplication(db, who, applied.id) : applied;
    });
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
