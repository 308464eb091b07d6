import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
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
  /** The clock (ms), for expiry; default Date.now. */
  now?: () => number;
}

/** A verified token is remembered this long at most (and never past its exp). */
const REMEMBER_MS = 5 * 60_000;
const REMEMBER_MAX = 10_000;

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
 *
 * A token that verified is remembered until its exp (at most REMEMBER_MS): the dashboard sends the
 * same token with every poll, and the signature check (RSA through WebCrypto) was ~0.5 ms of each
 * request (docs/performance.md). The password-change check still runs on every call.
 */
export class TraderVerifier {
  private readonly getKey: JWTVerifyGetKey;
  private readonly verified = new Map<string, { payload: JWTPayload; until: number }>();
  private readonly now: () => number;
  constructor(private readonly opts: TraderVerifierOptions) {
    const { jwks } = opts;
    if (jwks instanceof URL) this.getKey = createRemoteJWKSet(jwks, { cooldownDuration: 30_000 });
    else if (typeof jwks === 'function') this.getKey = (h, t) => createLocalJWKSet(jwks())(h, t);
    else this.getKey = createLocalJWKSet(jwks);
    this.now = opts.now ?? Date.now;
  }

  private async verifiedPayload(token: string): Promise<JWTPayload> {
    const now = this.now();
    const known = this.verified.get(token);
    if (known && now < known.until) return known.payload;
    if (known) this.verified.delete(token);
    const { payload } = await jwtVerify(token, this.getKey, {
      issuer: this.opts.issuer,
      audience: this.opts.audience,
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requiredClaims: ['sub', 'exp'],
      currentDate: new Date(now),
    });
    if (!isAccessToken(token, payload)) throw new Error('not an access token');
    if (this.verified.size >= REMEMBER_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { payload, until: Math.min(payload.exp! * 1000, now + REMEMBER_MS) });
    return payload;
  }

  async verify(token: string): Promise<TraderIdentity> {
    const payload = await this.verifiedPayload(token);
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
