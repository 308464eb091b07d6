import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PricerClaims, PricerTokens } from '../auth/pricerTokens';
import type { TraderIdentity, TraderVerifier } from '../auth/traderTokens';
import { unauthorized } from '../domain/errors';

declare module 'fastify' {
  interface FastifyRequest {
    trader?: TraderIdentity;
    pricer?: PricerClaims;
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
    req.log.info({ reason: (e as Error).message }, 'trader token rejected');
    throw unauthorized('访问令牌无效或已过期');
  }
};

/** Every /api/pricer call except login: the token issued by pricer-login. */
export const requirePricer = (tokens: PricerTokens) => async (req: FastifyRequest, _reply: FastifyReply) => {
  const token = bearer(req);
  try {
    req.pricer = await tokens.verify(token);
  } catch {
    throw unauthorized('登录已过期，请重新登录');
  }
};
