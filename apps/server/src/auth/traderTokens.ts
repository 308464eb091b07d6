import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';

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
  /**
   * When the trader's password last changed (ms), or undefined: tokens issued before are refused.
   * The embedded provider knows it; an external one revokes its own sessions.
   */
  passwordChangedAt?: (sub: string) => Promise<number | undefined>;
}

/**
 * Access tokens only (ID tokens share issuer and audience): `typ: at+jwt` in the header (RFC 9068,
 * the embedded provider), or Keycloak's `typ: Bearer` claim.
 */
function isAccessToken(token: string, payload: Record<string, unknown>): boolean {
  const typ = String(decodeProtectedHeader(token).typ ?? '').toLowerCase();
  return typ === 'at+jwt' || typ === 'application/at+jwt' || payload.typ === 'Bearer';
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
    if (!isAccessToken(token, payload)) throw new Error('not an access token');
    const changedAt = await this.opts.passwordChangedAt?.(payload.sub!);
    // iat has whole seconds: a token of the very second of the change still passes.
    if (changedAt !== undefined && (payload.iat ?? 0) < Math.floor(changedAt / 1000))
      throw new Error('issued before the password changed');
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
