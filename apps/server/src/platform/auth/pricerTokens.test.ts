import { describe, expect, it } from 'vitest';
import { PricerTokens } from './pricerTokens';

const claims = { tenantId: 7, userId: 42, username: '张三', version: 3 };

describe('PricerTokens remembers verified tokens', () => {
  it('until their expiry, not after', async () => {
    const t0 = Date.now();
    let now = t0;
    const tokens = new PricerTokens('secret-a', 60, () => now);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    now = t0 + 58_000;
    expect(await tokens.verify(token)).toEqual(claims);
    now = t0 + 61_000;
    await expect(tokens.verify(token)).rejects.toThrow();
  });

  it('never for a token it did not sign, or one that was changed', async () => {
    const mine = new PricerTokens('secret-a');
    const theirs = new PricerTokens('secret-b');
    const token = await mine.sign(claims);
    expect(await mine.verify(token)).toEqual(claims);
    await expect(theirs.verify(token)).rejects.toThrow();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), user_id: 43 }));
    await expect(mine.verify(`${h}.${forged.toString('base64url')}.${s}`)).rejects.toThrow();
  });
});
