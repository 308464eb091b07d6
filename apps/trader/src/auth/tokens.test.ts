import { describe, expect, it } from 'vitest';
import { b64url, jwt } from '../../test/jwt';
import { CRYPTO_UNAVAILABLE, decodeJwtPayload, randomNonce, TOKEN_DECODE_ERROR, traderFromTokens } from './tokens';

describe('decodeJwtPayload', () => {
  it('reads the payload of a well-formed token, including non-ASCII claims', () => {
    expect(decodeJwtPayload(jwt({ sub: 'a', name: '演示贸易商' }))).toEqual({ sub: 'a', name: '演示贸易商' });
  });

  it.each([
    ['two parts', `${b64url({ alg: 'none' })}.${b64url({ sub: 'a' })}`],
    ['four parts', `${jwt({ sub: 'a' })}.extra`],
    ['empty payload', `${b64url({ alg: 'none' })}..sig`],
    ['not base64url', `${b64url({ alg: 'none' })}.%%%.sig`],
    ['payload not JSON', `${b64url({ alg: 'none' })}.${Buffer.from('hello').toString('base64url')}.sig`],
    ['payload an array', `${b64url({ alg: 'none' })}.${b64url([1, 2])}.sig`],
    ['header not JSON', `abc.${b64url({ sub: 'a' })}.sig`],
  ])('rejects a token with %s', (_, token) => {
    expect(() => decodeJwtPayload(token)).toThrow(TOKEN_DECODE_ERROR);
  });
});

describe('randomNonce', () => {
  it('is url-safe and different every time', () => {
    const a = randomNonce();
    const b = randomNonce();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a).not.toBe(b);
  });

  it('needs Web Crypto', () => {
    expect(() => randomNonce({} as Crypto)).toThrow(CRYPTO_UNAVAILABLE);
  });
});

describe('traderFromTokens', () => {
  it('takes the id token claims first', () => {
    const trader = traderFromTokens(
      { sub: 's1', name: '张三', preferred_username: 'zhang', email: 'z@example.com' },
      jwt({ sub: 's1', name: '别的名字' }),
    );
    expect(trader).toEqual({
      sub: 's1',
      name: '张三',
      preferred_username: 'zhang',
      email: 'z@example.com',
      avatarUrl: '',
    });
  });

  it("falls back to the access token's claims when the id token only has sub (scope openid)", () => {
    const trader = traderFromTokens(
      { sub: 's1' },
      jwt({ sub: 's1', name: '演示贸易商', preferred_username: 'trader' }),
    );
    expect(trader.name).toBe('演示贸易商');
    expect(trader.preferred_username).toBe('trader');
    expect(trader.email).toBe('');
  });

  it('uses preferred_username when there is no name', () => {
    expect(traderFromTokens({ sub: 's1', preferred_username: 'trader' }, jwt({ sub: 's1' })).name).toBe('trader');
  });

  it('refuses a malformed access token', () => {
    expect(() => traderFromTokens({ sub: 's1' }, 'not-a-jwt')).toThrow(TOKEN_DECODE_ERROR);
  });
});
