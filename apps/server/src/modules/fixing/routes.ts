import { pricerRoutes as pricerApi, statementQuery, traderRoutes as traderApi } from '@pfp/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext, Capability } from '../context';
import {
  acknowledgeConfirmation,
  assertPricerOfTenant,
  confirmationsInRange,
  getConfirmation,
  type ConfirmationScope,
  contractSummaries,
} from './confirmations';
import { simPositions, tenantExposure } from './exposure';
import { csvStream, xlsxStream } from './statements';
import { serve } from '../../platform/http/route';
import { ledgerInRange } from '../margin/ledger';
import { FIXING_SQL } from './sql';

const tags = ['fixing'];

type StatementParams = z.output<typeof statementQuery>;

async function sendStatement(
  reply: FastifyReply,
  ctx: AppContext,
  scope: ConfirmationScope,
  p: StatementParams,
  who: string,
) {
  const tenant = await ctx.db
    .selectFrom('tenants')
    .select('company_name')
    .where('id', '=', scope.tenantId)
    .executeTakeFirstOrThrow();
  const rows = confirmationsInRange(ctx.db, scope, p);
  // The file is named as the button that downloads it: 点价对账单 (issue 29).
  const name = `点价对账单_${p.start_date}_${p.end_date}.${p.format}`;
  const ascii = `statement_${p.start_date}_${p.end_date}.${p.format}`;
  const summary = contractSummaries(ctx.db, scope, p);
  // Read before the first byte is sent; a failure is the stream's error, never an unhandled rejection.
  summary.catch(() => undefined);
  reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`);
  reply.header('cache-control', 'no-store');
  if (p.format === 'csv') {
    reply.type('text/csv; charset=utf-8');
    return reply.send(csvStream(rows, summary));
  }
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const title = `${tenant.company_name} 点价确认单 ${p.start_date} 至 ${p.end_date}${who ? `（${who}）` : ''}`;
  // docs/margin.md: the workbook also carries the customers' funds entries of the range.
  return reply.send(xlsxStream(rows, title, ledgerInRange(ctx.db, scope, p), summary));
}

/** A file answer: the query is the contract's; the body is the file, not an envelope. */
function serveFile(
  app: FastifyInstance,
  path: string,
  handler: (req: FastifyRequest, reply: FastifyReply, query: StatementParams) => Promise<unknown>,
) {
  app.route({
    method: 'GET',
    url: path,
    schema: { querystring: statementQuery, tags: ['fixing'] },
    handler: (req, reply) => handler(req, reply, req.query as StatementParams),
  });
}

/** The business calls of docs/fixing.md beside the spec's: price confirmations, exposure, statements (exports). */
export const fixing: Capability = {
  sql: FIXING_SQL,
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(
      app,
      traderApi.confirmation,
      async ({ req, body }) => getConfirmation(db, { tenantId: await trader.tenantOf(req) }, body.order_id),
      { tags },
    );

    serve(
      app,
      traderApi.exposure,
      async ({ req }) => {
        const tenantId = await trader.tenantOf(req);
        const t = await db.selectFrom('tenants').select('is_sim').where('id', '=', tenantId).executeTakeFirstOrThrow();
        if (t.is_sim)
          return tenantExposure(db, tenantId, { source: 'sim', positions: await simPositions(db, tenantId) });
        const positions = ctx.hedgePositions?.(tenantId);
        return tenantExposure(
          db,
          tenantId,
          positions
            ? { source: 'account', positions }
            : { source: null, message: '期货账户持仓暂不可用（交易网关未连接）' },
        );
      },
      { tags },
    );

    serveFile(app, traderApi.exportFixings.path, async (req, reply, p) => {
      const tenantId = await trader.tenantOf(req);
      let who = '';
      if (p.pricer_id !== undefined) {
        await assertPricerOfTenant(db, tenantId, p.pricer_id);
        const u = await db
          .selectFrom('pricer_users')
          .select('username')
          .where('id', '=', p.pricer_id)
          .executeTakeFirst();
        who = u?.username ?? '';
      }
      return sendStatement(
        reply,
        ctx,
        { tenantId, ...(p.pricer_id !== undefined ? { pricerId: p.pricer_id } : {}) },
        p,
        who,
      );
    });
  },

  pricer(app, ctx, pricer) {
    serve(app, pricerApi.confirmation, ({ req, body }) => getConfirmation(ctx.db, pricer.who(req), body.order_id), {
      tags,
    });
    serve(
      app,
      pricerApi.acknowledgeConfirmation,
      ({ req, body }) =>
        acknowledgeConfirmation(ctx.db, pricer.who(req), body.order_id, {
          ip: req.ip ?? null,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
        }),
      { tags },
    );
    // A customer's statement is always their own: a pricer_id in the query is ignored.
    serveFile(app, pricerApi.exportFixings.path, (req, reply, p) =>
      sendStatement(reply, ctx, pricer.who(req), { ...p, pricer_id: undefined }, req.pricer!.username ?? ''),
    );
  },
};
