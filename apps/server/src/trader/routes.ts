import { BROKERS } from '@pfp/i18n';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createContract, createContractSchema, updateContractStatus, updateStatusSchema } from '../domain/contracts';
import { cancelOrder, cancelOrderSchema } from '../domain/orders';
import { createPricer, createPricerSchema, resetPasswordSchema, resetPricerPassword } from '../domain/pricers';
import { getProfile, profileSchema, requireTenantId, saveProfile } from '../domain/tenants';
import { requireTrader } from '../http/guards';
import { parseBody } from '../http/validate';
import { runView } from '../views/engine';
import { TRADER_VIEWS } from './views';

const ok = <T>(data: T) => ({ result: 'ok' as const, data });

/** SPEC §7 "Trader calls". Every route needs a verified identity-provider token. */
export async function traderRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const brokers = BROKERS;
  app.addHook('preHandler', requireTrader(ctx.traderVerifier));
  const sub = (req: { trader?: { sub: string } }) => req.trader!.sub;

  app.post('/api/trader/view/my-self', async (req) => ok(await getProfile(db, sub(req))));

  app.get('/api/trader/view/tqsdk-status', async (req) => {
    const tenant = await db
      .selectFrom('tenants')
      .select(['id', 'is_sim'])
      .where('owner_sub', '=', sub(req))
      .executeTakeFirst();
    if (!tenant) return ok({ status: 'error', connected: false, message: '尚未配置交易账户' });
    const status = ctx.gatewayStatus?.(tenant.id) ?? { status: 'error' as const, message: '交易网关未启动' };
    return ok({ ...status, connected: status.status === 'ok' });
  });

  app.post('/api/trader/rpc/trader-profile', async (req) => {
    const input = parseBody(profileSchema(brokers), req.body);
    const tenantId = await saveProfile(db, ctx.secrets, sub(req), input);
    ctx.onProfileSaved?.(tenantId);
    return ok(await getProfile(db, sub(req)));
  });

  for (const [name, def] of Object.entries(TRADER_VIEWS)) {
    app.post(`/api/trader/view/${name}`, async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const scope = await def.scope(body, { tenantId: () => requireTenantId(db, sub(req)) });
      return ok(await runView(db, def.view, body, scope));
    });
  }

  app.post('/api/trader/rpc/cancel-order', async (req) => {
    const { order_id } = parseBody(cancelOrderSchema, req.body);
    const tenantId = await requireTenantId(db, sub(req));
    return ok(await cancelOrder(db, { tenantId, actor: sub(req) }, order_id, ctx.orderEvents));
  });

  app.post('/api/trader/rpc/update-contract-status', async (req) => {
    const input = parseBody(updateStatusSchema, req.body);
    return ok(await updateContractStatus(db, await requireTenantId(db, sub(req)), sub(req), input));
  });

  app.post('/api/trader/rpc/create-contract', async (req) => {
    const input = parseBody(createContractSchema, req.body);
    return ok(await createContract(db, await requireTenantId(db, sub(req)), sub(req), input));
  });

  app.post('/api/trader/rpc/create-pricer-user', async (req) => {
    const input = parseBody(createPricerSchema, req.body);
    return ok(await createPricer(db, await requireTenantId(db, sub(req)), sub(req), input));
  });

  app.post('/api/trader/rpc/reset-pricer-password', async (req) => {
    const input = parseBody(resetPasswordSchema, req.body);
    await resetPricerPassword(db, await requireTenantId(db, sub(req)), sub(req), input);
    return ok({ user_id: input.user_id });
  });
}
