import { holdForApproval } from '../staff/hold';
import { traderRoutes as api } from '@pfp/contract';
import { accepted, serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { createContract } from './contracts';
import { lastPriceFrom } from '../margin/market';
import { contractsView, instrumentsView, productsView } from './views';
import { CONTRACTS_SQL } from './sql';

const tags = ['trader'];

/** The price-fixing contracts (basis, fixing deadline), and the catalogue their form picks from. */
export const contracts: Capability = {
  sql: CONTRACTS_SQL,
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(app, api.contracts, ({ req, body }) => trader.view(req, contractsView, body), { tags });
    // The shared catalogue, but only for a trader with a company (403 before the first settings save).
    serve(app, api.products, ({ req, body }) => trader.view(req, productsView, body, () => ({})), { tags });
    serve(
      app,
      api.instruments,
      ({ req, body }) => trader.view(req, instrumentsView, body, () => ({ product_name: String(body.product_name) })),
      { tags },
    );

    serve(
      app,
      api.createContract,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'create-contract',
          body: body,
          check: (tx) => createContract(tx, tenantId, trader.sub(req), body, new Date(), lastPriceFrom(ctx)),
        });
        if (held !== undefined) return accepted(held);
        return createContract(db, tenantId, trader.sub(req), body, new Date(), lastPriceFrom(ctx));
      },
      { tags },
    );
  },
};
