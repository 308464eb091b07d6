import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { acceptAgreement, pricerAgreement, recordSignedAgreement, saveAgreement } from './agreement';
import { agreementsOverview } from './overview';

const tags = ['agreement'];

/** 点价协议 (issue 43, docs/agreement.md): the company's versions, the customers' acceptance; the gate is agreement.ts's. */
export const agreement: Capability = {
  trader(app, ctx, trader) {
    serve(app, traderApi.agreements, async ({ req }) => agreementsOverview(ctx.db, await trader.tenantOf(req)), {
      tags,
    });
    serve(
      app,
      traderApi.saveAgreement,
      async ({ req, body }) => saveAgreement(ctx.db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      traderApi.recordSignedAgreement,
      async ({ req, body }) => recordSignedAgreement(ctx.db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
  },

  pricer(app, ctx, pricer) {
    serve(app, pricerApi.agreement, ({ req }) => pricerAgreement(ctx.db, pricer.who(req)), { tags });
    serve(
      app,
      pricerApi.acceptAgreement,
      ({ req, body }) => acceptAgreement(ctx.db, { ...pricer.who(req), actor: pricer.actor(req) }, body.version),
      { tags },
    );
  },
};
