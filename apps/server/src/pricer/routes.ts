import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { cancelOrder, cancelOrderSchema, submitOrder, submitOrderSchema } from '../domain/orders';
import { loginPricer, loginSchema } from '../domain/pricers';
import { notFound } from '../http/errors';
import { requirePricer } from '../http/guards';
import { parseBody } from '../http/validate';
import { runView } from '../views/engine';
import { ordersView } from '../trader/views';

const ok = <T>(data: T) => ({ result: 'ok' as const, data });

const myOrdersParams = z.object({
  contract_id: z.coerce.number().int().positive().optional(),
  status: z.enum(['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED'], { message: '订单状态无效' }).optional(),
  start_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: '开始日期格式应为 YYYY-MM-DD' })
    .optional(),
  end_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: '结束日期格式应为 YYYY-MM-DD' })
    .optional(),
});

/** Empty strings and 'all' mean "no condition" (SPEC §7 my-orders). */
const present = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== '' && v !== 'all' && v !== null && v !== undefined));

/** SPEC §7 "Customer calls". */
export async function pricerRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  // Public: login (rate limited per address and per account) and the company name.
  await app.register(async (pub) => {
    await pub.register(rateLimit, {
      max: ctx.config.loginRateLimit,
      timeWindow: '1 minute',
      keyGenerator: (req) => {
        const b = (req.body ?? {}) as { tenant_id?: unknown; username?: unknown };
        return `${req.ip}|${String(b.tenant_id)}|${String(b.username)}`;
      },
    });
    pub.post('/api/pricer/rpc/pricer-login', async (req) => {
      const input = parseBody(loginSchema, req.body);
      const u = await loginPricer(db, input);
      const jwt = await ctx.pricerTokens.sign({ tenantId: u.tenantId, userId: u.userId, username: u.username });
      return ok({
        jwt_token: jwt,
        user_id: u.userId,
        username: u.username,
        tenant_id: u.tenantId,
        company_name: u.companyName,
      });
    });
  });

  app.post('/api/pricer/rpc/get-tenant-info', async (req) => {
    const { tenant_id } = parseBody(z.object({ tenant_id: loginSchema.shape.tenant_id }), req.body);
    const t = await db
      .selectFrom('tenants')
      .select(['id', 'company_name'])
      .where('id', '=', tenant_id)
      .executeTakeFirst();
    if (!t) throw notFound('公司代码不存在');
    return ok({ tenant_id: t.id, company_name: t.company_name });
  });

  await app.register(async (priv) => {
    priv.addHook('preHandler', requirePricer(ctx.pricerTokens));
    const who = (req: { pricer?: { tenantId: number; userId: number } }) => ({
      tenantId: req.pricer!.tenantId,
      pricerId: req.pricer!.userId,
    });

    priv.post('/api/pricer/view/my-data-snapshot', async (req) => {
      const { tenantId, pricerId } = who(req);
      const [contracts, orders] = await Promise.all([
        db
          .selectFrom('v_contracts')
          .innerJoin('instruments', 'instruments.symbol', 'v_contracts.instrument_id')
          .select([
            'v_contracts.id',
            'v_contracts.name',
            'v_contracts.product_name',
            'v_contracts.instrument_id',
            'instruments.name as instrument_name',
            'instruments.price_tick',
            'v_contracts.direction',
            'v_contracts.total_quantity',
            'v_contracts.remaining_quantity',
            'v_contracts.executed_quantity',
            'v_contracts.frozen_quantity',
            'v_contracts.avg_price',
            'v_contracts.status',
            'v_contracts.created_at',
          ])
          .where('v_contracts.tenant_id', '=', tenantId)
          .where('v_contracts.pricer_id', '=', pricerId)
          .orderBy('v_contracts.id', 'desc')
          .execute(),
        db
          .selectFrom('v_orders')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where('pricer_id', '=', pricerId)
          .orderBy('id', 'desc')
          .limit(200)
          .execute(),
      ]);
      const market_data: Record<string, { last_price: number | null }> = {};
      for (const c of contracts)
        market_data[c.instrument_id] = { last_price: ctx.lastPrice?.(c.instrument_id) ?? null };
      return ok({ contracts, orders, timestamp: new Date().toISOString(), market_data });
    });

    priv.post('/api/pricer/view/my-orders', async (req) => {
      const body = present((req.body ?? {}) as Record<string, unknown>);
      const p = parseBody(myOrdersParams, body);
      const { tenantId, pricerId } = who(req);
      const scope: Record<string, string | number> = { tenant_id: tenantId, pricer_id: pricerId };
      if (p.contract_id) scope.contract_id = p.contract_id;
      if (p.status) scope.status = p.status;
      return ok(
        await runView(db, ordersView, body, scope, {
          ...(p.start_date ? { createdFrom: p.start_date } : {}),
          ...(p.end_date ? { createdTo: p.end_date } : {}),
        }),
      );
    });

    priv.post('/api/pricer/rpc/submit-order', async (req) => {
      const input = parseBody(submitOrderSchema, req.body);
      const order = await submitOrder(db, who(req), input, ctx.orderEvents);
      return ok(order);
    });

    priv.post('/api/pricer/rpc/cancel-order', async (req) => {
      const { order_id } = parseBody(cancelOrderSchema, req.body);
      const w = who(req);
      return ok(await cancelOrder(db, { ...w, actor: `pricer:${w.pricerId}` }, order_id, ctx.orderEvents));
    });
  });
}
