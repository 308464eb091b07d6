import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { accepted, serve } from '../../platform/http/route';
import { holdForApproval } from '../staff/hold';
import type { Capability } from '../context';
import { lastPriceFrom } from '../margin/market';
import { listFees, settleFee } from './fees';
import { respondStatement } from './respond';
import { buildStatement } from './statement';

const tags = ['statements'];

/** Fee receivables and the statement that balances (issue 41, docs/statements.md). */
export const statements: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    const lastPrice = lastPriceFrom(ctx);
    serve(app, traderApi.feeReceivables, async ({ req, body }) => listFees(db, await trader.tenantOf(req), body), {
      tags,
    });
    serve(
      app,
      traderApi.settleFee,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const settle = (on: Kysely<DB>) => settleFee(on, tenantId, trader.sub(req), body, lastPrice);
        // A waiver is under the approval policy (docs/roles.md): held for a second person, validated now.
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'settle-fee',
          body,
          check: settle,
        });
        if (held !== undefined) return accepted(held);
        return settle(db);
      },
      { tags },
    );
    serve(
      app,
      traderApi.statement,
      async ({ req, body }) =>
        buildStatement(db, { tenantId: await trader.tenantOf(req), pricerId: body.pricer_id }, body),
      { tags },
    );
  },

  pricer(app, ctx, pricer) {
    serve(app, pricerApi.statement, ({ req, body }) => buildStatement(ctx.db, pricer.who(req), body), { tags });
    serve(
      app,
      pricerApi.respondStatement,
      ({ req, body }) =>
        respondStatement(ctx.db, pricer.who(req), body, {
          ip: req.ip ?? null,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
        }),
      { tags },
    );
  },
};
