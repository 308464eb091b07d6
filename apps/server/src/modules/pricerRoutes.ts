import { pricerRoutes as api } from '@pfp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOGIN_MESSAGES, LoginGuard } from '../platform/auth/loginGuard';
import type { AppContext } from './context';
import { DomainError, tooMany } from '../platform/errors';
import { cancelOrder, submitOrder } from './orders/orders';
import { loginPricer } from './customers/pricers';
import { CustomerReads } from './customers/customerReads';
import { pricerSnapshot } from './customers/snapshot';
import { tenantInfo } from './tenants/tenants';
import { myOrders } from './views';
import { requirePricer } from '../platform/http/guards';
import { serve } from '../platform/http/route';

/** SPEC §7 "Customer calls". */
export async function pricerRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const tags = ['pricer'];

  // Public: login, protected per account and per address (auth/loginGuard.ts), and the company name.
  const guard = new LoginGuard({
    maxFailures: ctx.config.loginMaxFailures,
    lockMs: ctx.config.loginLockMinutes * 60_000,
    addressFailures: ctx.config.loginRateLimit,
  });
  serve(
    app,
    api.login,
    async ({ body, req }) => {
      const account = `pricer:${body.tenant_id}:${body.username.normalize('NFKC').toLowerCase()}`;
      const verdict = guard.check(account, req.ip);
      if (verdict !== 'ok') {
        req.log.warn({ tenant_id: body.tenant_id, username: body.username, verdict }, 'pricer login refused');
        throw verdict === 'account-locked'
          ? tooMany(LOGIN_MESSAGES.accountLocked, 'account_locked')
          : tooMany(LOGIN_MESSAGES.addressLimited);
      }
      let u: Awaited<ReturnType<typeof loginPricer>>;
      try {
        u = await loginPricer(db, body);
      } catch (err) {
        if (err instanceof DomainError && (err.kind === 'unauthorized' || err.kind === 'not_found'))
          guard.failed(account, req.ip);
        throw err;
      }
      guard.succeeded(account);
      const jwt = await ctx.pricerTokens.sign({
        tenantId: u.tenantId,
        userId: u.userId,
        username: u.username,
        version: u.tokenVersion,
      });
      return {
        jwt_token: jwt,
        user_id: u.userId,
        username: u.username,
        tenant_id: u.tenantId,
        company_name: u.companyName,
      };
    },
    { tags },
  );

  serve(app, api.tenantInfo, ({ body }) => tenantInfo(db, body.tenant_id), { tags });

  await app.register(async (priv) => {
    priv.addHook('onRequest', requirePricer(ctx.pricerTokens, db));
    const who = (req: FastifyRequest) => ({ tenantId: req.pricer!.tenantId, pricerId: req.pricer!.userId });
    // The desk's polls, answered from memory until the customer's data version moves (docs/performance.md).
    const reads = new CustomerReads();
    const remembered =
      (req: FastifyRequest, call: string, params: unknown) =>
      <T>(load: () => Promise<T>) =>
        reads.get(
          `${req.pricer!.tenantId}:${req.pricer!.userId}:${call}:${JSON.stringify(params)}`,
          req.pricer!.dataVersion,
          load,
        );

    serve(
      priv,
      api.snapshot,
      ({ req }) => pricerSnapshot(db, who(req), (s) => ctx.quote?.(s), remembered(req, 'snapshot', null)),
      { tags },
    );

    serve(
      priv,
      api.myOrders,
      ({ req, body }) => remembered(req, 'my-orders', body)(() => myOrders(db, who(req), body)),
      {
        tags,
      },
    );

    serve(priv, api.submitOrder, ({ req, body }) => submitOrder(db, who(req), body, ctx.tradingPort, ctx.priceBand), {
      tags,
    });

    serve(
      priv,
      api.cancelOrder,
      ({ req, body }) => {
        const w = who(req);
        return cancelOrder(db, { ...w, actor: `pricer:${w.pricerId}` }, body.order_id, ctx.tradingPort);
      },
      { tags },
    );
  });
}
