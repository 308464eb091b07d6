import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AccountDisabledError, verifyPricerSession, type PricerSession } from '../auth/pricerSessions';
import type { PricerTokens } from '../auth/pricerTokens';
import type { TraderIdentity, TraderVerifier } from '../auth/traderTokens';
import { isDatabaseUnavailable } from '../db/resilience';
import type { DB } from '../db/schema';
import { unauthorized } from '../errors';

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
