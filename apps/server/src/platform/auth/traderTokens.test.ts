import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { TraderVerifier } from './traderTokens';

const ISSUER = 'https://idp.test/realms/pfp';
const AUDIENCE = 'shinny_web';
const T0 = Date.UTC(2026, 10, 23, 2, 0, 0);

let key: CryptoKey;
let other: CryptoKey;
let jwks: JSONWebKeySet;
beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  key = pair.privateKey;
  other = (await generateKeyPair('RS256')).privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
});

const sign = (exp: number, signer = key) =>
  new SignJWT({ email: 'a@b.cn' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('trader-1')
    .setIssuedAt(Math.floor(T0 / 1000))
    .setExpirationTime(Math.floor(exp / 1000))
    .sign(signer);

describe('TraderVerifier remembers verified tokens', () => {
  it('until their expiry, not after', async () => {
    let now = T0;
    const v = new TraderVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, now: () => now });
    const token = await sign(T0 + 60_000);
    expect(await v.verify(token)).toMatchObject({ sub: 'trader-1', email: 'a@b.cn' });
    now = T0 + 59_000;
    expect(await v.verify(token)).toMatchObject({ sub: 'trader-1' });
    now = T0 + 60_000;
    await expect(v.verify(token)).rejects.toThrow();
  });

  it('checks the password change on every call, remembered or not', async () => {
    let changedAt: number | undefined = undefined; // no change yet
    const v = new TraderVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      jwks,
      now: () => T0 + 1000,
      passwordChangedAt: async () => changedAt,
    });
    const token = await sign(T0 + 60_000);
    await v.verify(token);
    changedAt = T0 + 1000;
    await expect(v.verify(token)).rejects.toThrow('issued before the password changed');
  });

  it('never takes a token for one it verified before: another signature is checked', async () => {
    const v = new TraderVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, now: () => T0 });
    const good = await sign(T0 + 60_000);
    await v.verify(good);
    const forged = await sign(T0 + 60_000, other);
    await expect(v.verify(forged)).rejects.toThrow();
  });

  it('checks a signature once per token: the key set is read only for a token not verified before', async () => {
    let keyReads = 0;
    const v = new TraderVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      jwks: () => (keyReads++, jwks),
      now: () => T0,
    });
    const a = await sign(T0 + 60_000);
    const b = await sign(T0 + 61_000);
    for (let i = 0; i < 5; i++) await v.verify(a);
    expect(keyReads).toBe(1);
    await v.verify(b);
    expect(keyReads).toBe(2);
  });
});
