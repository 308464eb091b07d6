import { traderRoutes as traderApi } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import {
  addAuthorisedPricer,
  listAuthorisedPricers,
  setAuthorisedPricerActive,
  updateAuthorisedPricer,
} from './authorised';

/** 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): the trader's list and management of them. */
export const authorised: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    const tags = ['trader'];
    serve(
      app,
      traderApi.authorisedPricers,
      async ({ req, body }) => listAuthorisedPricers(db, await trader.tenantOf(req), body.user_id),
      { tags },
    );
    serve(
      app,
      traderApi.addAuthorisedPricer,
      async ({ req, body }) => addAuthorisedPricer(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      traderApi.updateAuthorisedPricer,
      async ({ req, body }) => updateAuthorisedPricer(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      traderApi.setAuthorisedPricerActive,
      async ({ req, body }) => setAuthorisedPricerActive(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
  },
};
