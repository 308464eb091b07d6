import { holdForApproval } from '../staff/hold';
import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import { accepted, serve } from '../../platform/http/route';
import { notFound } from '../../platform/errors';
import type { Capability } from '../context';
import { readAccount, readAccounts } from './accounts';
import { latestEntries, recordFunds, setCreditLine } from './ledger';
import { effectiveMarginRate, readRateSettings, setRateSettings } from './rates';
import { contractValues } from './values';
import { lastPriceFrom } from './market';
import { settleLots } from './settle';
import { fundsLedgerView } from './views';
import { wakeMarginWatch, watchMarginCalls } from './watch';
import { MARGIN_SQL } from './sql';

/** 资金与保证金 (docs/margin.md): accounts, the funds ledger, credit lines, settlement; the check is in check.ts. */
export const margin: Capability = {
  sql: MARGIN_SQL,
  trader(app, ctx, trader) {
    const tags = ['trader'];
    const db = ctx.db;
    const lastPrice = lastPriceFrom(ctx);
    serve(
      app,
      traderApi.recordFunds,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'record-funds',
          body: body,
          check: (tx) => recordFunds(tx, tenantId, trader.sub(req), body, lastPrice),
        });
        if (held !== undefined) return accepted(held);
        const entry = await recordFunds(db, tenantId, trader.sub(req), body, lastPrice);
        // The answer reads; the watcher records a call the entry began or ended (the one writer of calls).
        wakeMarginWatch(db, tenantId);
        return { entry, account: await readAccount(db, { tenantId, pricerId: body.pricer_id }, lastPrice) };
      },
      { tags },
    );
    serve(
      app,
      traderApi.setCreditLine,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'set-credit-line',
          body: body,
          check: (tx) => setCreditLine(tx, tenantId, trader.sub(req), body),
        });
        if (held !== undefined) return accepted(held);
        await setCreditLine(db, tenantId, trader.sub(req), body);
        wakeMarginWatch(db, tenantId);
        return readAccount(db, { tenantId, pricerId: body.pricer_id }, lastPrice);
      },
      { tags },
    );
    serve(
      app,
      traderApi.pricerAccounts,
      async ({ req }) => {
        const items = await readAccounts(db, { tenantId: await trader.tenantOf(req) }, lastPrice);
        return { items, total_count: items.length };
      },
      { tags },
    );
    serve(
      app,
      traderApi.fundsLedger,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const { pricer_id, ...view } = body;
        const found = await db
          .selectFrom('pricer_users')
          .select('id')
          .where('id', '=', pricer_id)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst();
        if (!found) throw notFound('客户不存在');
        return trader.view(req, fundsLedgerView, view, () => ({ tenant_id: tenantId, pricer_id }));
      },
      { tags },
    );
    serve(
      app,
      traderApi.settleLots,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'settle-lots',
          body: body,
          check: (tx) => settleLots(tx, tenantId, trader.sub(req), body),
        });
        if (held !== undefined) return accepted(held);
        const row = await settleLots(db, tenantId, trader.sub(req), body);
        wakeMarginWatch(db, tenantId);
        const account = await readAccount(db, { tenantId, pricerId: row.pricer_id }, lastPrice);
        return {
          contract_id: row.id,
          executed_quantity: row.executed_quantity,
          settled_quantity: row.settled_quantity,
          account,
        };
      },
      { tags },
    );
    serve(app, traderApi.marginSettings, async ({ req }) => readRateSettings(db, await trader.tenantOf(req)), {
      tags,
    });
    serve(
      app,
      traderApi.setMarginSettings,
      async ({ req, body }) => setRateSettings(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    // issue 41: the rate a new contract gets, and what every contract is worth
    serve(
      app,
      traderApi.effectiveMarginRate,
      async ({ req, body }) => effectiveMarginRate(db, await trader.tenantOf(req), body.pricer_id, body.product_name),
      { tags },
    );
    serve(
      app,
      traderApi.contractValues,
      async ({ req, body }) =>
        contractValues(db, { tenantId: await trader.tenantOf(req), pricerId: body.pricer_id }, lastPrice),
      { tags },
    );
  },

  pricer(app, ctx, pricer) {
    const lastPrice = lastPriceFrom(ctx);
    serve(
      app,
      pricerApi.myFunds,
      async ({ req }) => {
        const who = pricer.who(req);
        const [account, items] = await Promise.all([readAccount(ctx.db, who, lastPrice), latestEntries(ctx.db, who)]);
        return { account, items };
      },
      { tags: ['pricer'] },
    );
    serve(app, pricerApi.myContractValues, async ({ req }) => contractValues(ctx.db, pricer.who(req), lastPrice), {
      tags: ['pricer'],
    });
  },
  jobs(ctx) {
    // The one writer of margin calls, woken by the ticks (its timer a fallback): docs/margin.md "Margin calls".
    return [
      watchMarginCalls({
        db: ctx.db,
        lastPrice: (s) => ctx.market.getQuote(s)?.last_price,
        onTick: (listener) => ctx.market.onTick(listener),
        logger: ctx.logger,
      }),
    ];
  },
};
