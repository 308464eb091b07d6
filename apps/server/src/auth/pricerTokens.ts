import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from './secrets';

export interface PricerClaims {
  tenantId: number;
  userId: number;
  username: string;
  /** pricer_users.token_version when issued: a password reset bumps it (see pricerSessions.ts). */
  version: number;
}

const ISSUER = 'pfp-pricer';

/** The pricer's session token: a server-signed JWT (HS256) with tenant_id and user_id. */
export class PricerTokens {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds = 12 * 3600,
  ) {
    this.key = deriveKey(secret, 'pricer-jwt');
  }

  sign(c: PricerClaims): Promise<string> {
    return new SignJWT({ tenant_id: c.tenantId, user_id: c.userId, username: c.username, ver: c.version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(`pricer:${c.userId}`)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** Throws on a bad signature, a wrong issuer, expiry or missing claims. */
  async verify(token: string): Promise<PricerClaims> {
    const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
    const { tenant_id, user_id, username, ver = 0 } = payload as Record<string, unknown>;
    if (
      !Number.isInteger(tenant_id) ||
      !Number.isInteger(user_id) ||
      typeof username !== 'string' ||
      !Number.isInteger(ver)
    ) {
      throw new Error('token claims missing');
    }
    return { tenantId: tenant_id as number, userId: user_id as number, username, version: ver as number };
  }
}
