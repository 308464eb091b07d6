import { jwtVerify, SignJWT } from 'jose';
import { RememberedTokens } from './rememberedTokens';
import { deriveKey } from './secrets';

export interface PricerClaims {
  tenantId: number;
  userId: number;
  username: string;
  /** pricer_users.token_version when issued: a password reset bumps it (see pricerSessions.ts). */
  version: number;
  /** An 授权点价人's own login (migration 030): their id and token version; absent for the customer's own login. */
  personId?: number;
  personVersion?: number;
}

const ISSUER = 'pfp-pricer';

/**
 * The pricer's session token: a server-signed JWT (HS256) with tenant_id and user_id. A token that
 * verified is remembered until its exp (rememberedTokens.ts: the desk polls with it every few
 * seconds); the session check (pricerSessions.ts) still reads the customer's row on every call.
 */
export class PricerTokens {
  private readonly key: Uint8Array;
  private readonly verified: RememberedTokens<PricerClaims>;
  constructor(
    secret: string,
    private readonly ttlSeconds = 12 * 3600,
    /** The clock (ms), for expiry; default Date.now. */
    now: () => number = Date.now,
  ) {
    this.key = deriveKey(secret, 'pricer-jwt');
    this.verified = new RememberedTokens(now);
  }

  sign(c: PricerClaims): Promise<string> {
    const person = c.personId === undefined ? {} : { pid: c.personId, pver: c.personVersion ?? 0 };
    return new SignJWT({ tenant_id: c.tenantId, user_id: c.userId, username: c.username, ver: c.version, ...person })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(`pricer:${c.userId}`)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** Throws on a bad signature, a wrong issuer, expiry or missing claims. */
  verify(token: string): Promise<PricerClaims> {
    return this.verified.get(token, async (now) => {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        currentDate: new Date(now),
      });
      const { tenant_id, user_id, username, ver = 0, pid, pver = 0 } = payload as Record<string, unknown>;
      if (
        !Number.isInteger(tenant_id) ||
        !Number.isInteger(user_id) ||
        typeof username !== 'string' ||
        !Number.isInteger(ver) ||
        (pid !== undefined && (!Number.isInteger(pid) || !Number.isInteger(pver)))
      ) {
        throw new Error('token claims missing');
      }
      const claims: PricerClaims = {
        tenantId: tenant_id as number,
        userId: user_id as number,
        username,
        version: ver as number,
      };
      if (pid !== undefined) Object.assign(claims, { personId: pid as number, personVersion: pver as number });
      return { value: claims, until: payload.exp! * 1000 };
    });
  }
}
