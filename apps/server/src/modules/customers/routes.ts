import { holdForApproval } from '../staff/hold';
import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import type { FastifyRequest } from 'fastify';
import { LOGIN_MESSAGES, LoginGuard } from '../../platform/auth/loginGuard';
import { typedNameTag } from '../../platform/auth/typedName';
import { DomainError, tooMany } from '../../platform/errors';
import { accepted, serve } from '../../platform/http/route';
import type { AppContext, Capability, PricerCaller } from '../context';
import { myOrders } from '../orders/views';
import { CustomerReads } from './customerReads';
import { createPricer, loginPricer, resetPricerPassword, unlockPricer, updatePricerProfile } from './pricers';
import { pricerSnapshot } from './snapshot';
import { usersView } from './views';

/** The customers (点价客户): their login and desk reads, and the trader's management of them. */
export const customers: Capability = {
  // Login, protected per account and per address (platform/auth/loginGuard.ts).
  open(app, ctx) {
    const guard = loginGuardOf(ctx);
    serve(
      app,
      pricerApi.login,
      async ({ body, req }) => {
        const account = pricerAccount(body.tenant_id, body.username);
        const verdict = await guard.check(account, req.ip);
        if (verdict !== 'ok') {
          // The typed name is not logged in clear (issue 30): a tag of it.
          req.log.warn(
            { tenant_id: body.tenant_id, username_tag: typedNameTag(body.username), verdict },
            'pricer login refused',
          );
          throw verdict === 'account-locked'
            ? tooMany(LOGIN_MESSAGES.accountLocked, 'account_locked')
            : tooMany(LOGIN_MESSAGES.addressLimited);
        }
        let u: Awaited<ReturnType<typeof loginPricer>>;
        try {
          u = await loginPricer(ctx.db, body);
        } catch (err) {
          if (err instanceof DomainError && (err.kind === 'unauthorized' || err.kind === 'not_found'))
            await guard.failed(account, req.ip);
          throw err;
        }
        await guard.succeeded(account, req.ip);
        const jwt = await ctx.pricerTokens.sign({
          tenantId: u.tenantId,
          userId: u.userId,
          username: u.username,
          version: u.tokenVersion,
          ...(u.personId === undefined ? {} : { personId: u.personId, personVersion: u.personVersion }),
        });
        return {
          jwt_token: jwt,
          user_id: u.userId,
          username: u.username,
          tenant_id: u.tenantId,
          company_name: u.companyName,
        };
      },
      { tags: ['pricer'] },
    );
  },

  pricer(app, ctx, pricer) {
    const { db } = ctx;
    const tags = ['pricer'];
    const remembered = rememberedReads(pricer);
    serve(
      app,
      pricerApi.snapshot,
      async ({ req }) => ({
        ...(await pricerSnapshot(db, pricer.who(req), (s) => ctx.quote?.(s), remembered(req, 'snapshot', null))),
        // The signed-in 授权点价人 (read by the session check): the desk shows who is fixing.
        person: pricer.login(req).person,
      }),
      { tags },
    );
    serve(
      app,
      pricerApi.myOrders,
      ({ req, body }) => remembered(req, 'my-orders', body)(() => myOrders(db, pricer.who(req), body)),
      { tags },
    );
  },

  trader(app, ctx, trader) {
    const { db } = ctx;
    const tags = ['trader'];
    serve(app, traderApi.users, ({ req, body }) => trader.view(req, usersView, body), { tags });
    serve(
      app,
      traderApi.createPricerUser,
      async ({ req, body }) => createPricer(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    // A customer's password, or an 授权点价人's (docs/authorised-pricers.md): the one reset.
    serve(
      app,
      traderApi.resetPricerPassword,
      async ({ req, body }) => ({ user_id: (await reset(req, body)).user_id }),
      {
        tags,
      },
    );
    serve(
      app,
      traderApi.resetAuthorisedPricerPassword,
      async ({ req, body }) => ({ person_id: body.person_id, user_id: (await reset(req, body)).user_id }),
      { tags },
    );
    async function reset(req: FastifyRequest, body: Parameters<typeof resetPricerPassword>[3]) {
      const tenantId = await trader.tenantOf(req);
      const done = await resetPricerPassword(db, tenantId, trader.sub(req), body);
      // A new password also unlocks (issue 30): the customer told it can sign in with it at once.
      await loginGuardOf(ctx).unlock(pricerAccount(tenantId, done.username));
      return done;
    }
    serve(
      app,
      traderApi.unlockPricer,
      async ({ req, body }) => {
        const tenantId = await trader.tenantOf(req);
        const held = await holdForApproval(db, {
          tenantId,
          maker: trader.sub(req),
          action: 'unlock-pricer',
          body: body,
          // The login guard is not the database's: the dry run leaves it as it is.
          check: (tx) => unlockPricer(tx, tenantId, trader.sub(req), body.user_id, async () => {}),
        });
        if (held !== undefined) return accepted(held);
        return unlockPricer(db, tenantId, trader.sub(req), body.user_id, unlockLoginOf(ctx));
      },
      { tags },
    );
    serve(
      app,
      traderApi.updatePricerProfile,
      async ({ req, body }) => updatePricerProfile(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
  },
};

/** The login guard of an app (one per AppContext): the login and the trader's unlock share it. */
const guards = new WeakMap<AppContext, LoginGuard>();
function loginGuardOf(ctx: AppContext): LoginGuard {
  let guard = guards.get(ctx);
  if (!guard) {
    guard = new LoginGuard(ctx.db, {
      maxFailures: ctx.config.loginMaxFailures,
      lockMs: ctx.config.loginLockMinutes * 60_000,
      addressFailures: ctx.config.loginRateLimit,
    });
    guards.set(ctx, guard);
  }
  return guard;
}

/** A customer's login account as the guard keys it: the tenant and the name as typed, normalised. */
/** The login guard's unlock of a customer (the approvals' applied unlock uses it too). */
export const unlockLoginOf = (ctx: AppContext) => (tenantId: number, username: string) =>
  loginGuardOf(ctx).unlock(pricerAccount(tenantId, username));

const pricerAccount = (tenantId: number, username: string) =>
  `pricer:${tenantId}:${username.normalize('NFKC').toLowerCase()}`;

/** The desk's polls, answered from memory until the customer's data version moves (docs/performance.md). */
function rememberedReads(pricer: PricerCaller) {
  const reads = new CustomerReads();
  return (req: FastifyRequest, call: string, params: unknown) =>
    <T>(load: () => Promise<T>) => {
      const { tenantId, pricerId } = pricer.who(req);
      return reads.get(`${tenantId}:${pricerId}:${call}:${JSON.stringify(params)}`, req.pricer!.dataVersion, load);
    };
}
