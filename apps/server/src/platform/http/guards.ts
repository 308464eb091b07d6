import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AccountDisabledError, verifyPricerSession, type PricerSession } from '../auth/pricerSessions';
import type { PricerTokens } from '../auth/pricerTokens';
import type { TraderIdentity, TraderVerifier } from '../auth/traderTokens';
import { isDatabaseUnavailable } from '../db/resilience';
import type { DB } from '../db/schema';
import { forbidden, unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    trader?: TraderIdentity;
    pricer?: PricerSession;
  }
}

function bearer(req: FastifyRequest): string {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized('缺少访问令牌');
  return match[1];
}

/** Every /api/trader call: a verified access token of the identity provider. */
export const requireTrader = (verifier: TraderVerifier) => async (req: FastifyRequest, _reply: FastifyReply) => {
  const token = bearer(req);
  try {
    req.trader = await verifier.verify(token);
  } catch (e) {
    if (isDatabaseUnavailable(e)) throw e; // a 503, not "sign in again"
    req.log.info({ reason: (e as Error).message }, 'trader token rejected');
    throw unauthorized('访问令牌无效或已过期');
  }
};

/** Every /api/pricer call except login: the token issued by pricer-login, of a session still current. */
export const requirePricer =
  (tokens: PricerTokens, db: Kysely<DB>) => async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearer(req);
    try {
      req.pricer = await verifyPricerSession(db, tokens, token);
    } catch (e) {
      if (isDatabaseUnavailable(e)) throw e;
      // The desk's login page says why (账户已停用), not 认证已过期 (issue 30).
      if (e instanceof AccountDisabledError) throw unauthorized('账户已停用，请联系贸易商', 'account_disabled');
      throw unauthorized('登录已过期，请重新登录');
    }
  };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A trader call's staff roles (packages/contract paths.ts, docs/roles.md). */
    roles?: readonly string[];
  }
  interface FastifyRequest {
    /** The signed-in trader's staff roles, read from the database for this request (issue 42). */
    staffRoles?: readonly string[];
  }
}

/** A trader's staff membership as the role guard reads it; undefined before the trader has a company. */
export interface StaffAccess {
  roles: readonly string[];
  status: 'active' | 'disabled';
}

/**
 * Gives every trader route its staff roles from the route table (`rolesOf(method, url)`), and refuses to
 * register one that has none: no trader call is left open (docs/roles.md).
 */
export function declareRoles(rolesOf: (method: string, url: string) => readonly string[] | undefined) {
  return (opts: { method: string | string[]; url: string; config?: object }) => {
    const method = [opts.method].flat()[0] === 'HEAD' ? 'GET' : String([opts.method].flat()[0]);
    const roles = rolesOf(method, opts.url);
    if (!roles?.length)
      throw new Error(`trader route ${method} ${opts.url} declares no staff roles (packages/contract paths.ts)`);
    opts.config = { ...opts.config, roles };
  };
}

/**
 * After requireTrader: the caller's roles, read per request (a change applies at once), must meet the
 * route's; otherwise a Chinese 403 naming the roles. A trader with no company yet passes (only the settings'
 * first save and my-self answer without one); a disabled staff member is refused everything.
 */
export const requireRoles =
  (
    accessOf: (sub: string) => Promise<StaffAccess | undefined>,
    messages: { refused: (needed: readonly string[], mine: readonly string[]) => string; disabled: string },
  ) =>
  async (req: FastifyRequest, _reply: FastifyReply) => {
    const access = await accessOf(req.trader!.sub);
    if (!access) return;
    if (access.status !== 'active') throw forbidden(messages.disabled, 'staff_disabled');
    req.staffRoles = access.roles;
    const needed = req.routeOptions.config.roles ?? [];
    if (!needed.some((r) => access.roles.includes(r)))
      throw forbidden(messages.refused(needed, access.roles), 'role_refused');
  };
