import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

export interface TraderIdentity {
  sub: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
}

export interface TraderVerifierOptions {
  issuer: string;
  audience: string;
  /** A JWKS URL (a real provider) or the key set itself (the embedded provider, tests). */
  jwks: URL | JSONWebKeySet | (() => JSONWebKeySet);
}

/**
 * Verifies the bearer access token of every /api/trader call: signature against the issuer's
 * JWKS, issuer, audience and expiry. Asymmetric algorithms only.
 */
export class TraderVerifier {
  private readonly getKey: JWTVerifyGetKey;
  constructor(private readonly opts: TraderVerifierOptions) {
    const { jwks } = opts;
    if (jwks instanceof URL) this.getKey = createRemoteJWKSet(jwks, { cooldownDuration: 30_000 });
    else if (typeof jwks === 'function') this.getKey = (h, t) => createLocalJWKSet(jwks())(h, t);
    else this.getKey = createLocalJWKSet(jwks);
  }

  async verify(token: string): Promise<TraderIdentity> {
    const { payload } = await jwtVerify(token, this.getKey, {
      issuer: this.opts.issuer,
      audience: this.opts.audience,
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requiredClaims: ['sub', 'exp'],
    });
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const identity: TraderIdentity = { sub: payload.sub! };
    const email = str(payload.email);
    const name = str(payload.name);
    const preferred = str(payload.preferred_username);
    if (email) identity.email = email;
    if (name) identity.name = name;
    if (preferred) identity.preferredUsername = preferred;
    return identity;
  }
}
