import { scryptSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

/** An scrypt hash as the server stored them before argon2id (N=2^15, r=8, p=1). */
function legacyScrypt(password: string, N = 2 ** 15) {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

describe('password hashes', () => {
  it("are argon2id at OWASP's minimum: m=19 MiB, t=2, p=1", async () => {
    const hash = await hashPassword('pw-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('pw-1', hash)).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword('pw-2', hash)).toEqual({ ok: false, rehash: false });
  });

  it('still verify older scrypt hashes, and ask for an upgrade', async () => {
    const old = legacyScrypt('pw-old');
    expect(await verifyPassword('pw-old', old)).toEqual({ ok: true, rehash: true });
    expect((await verifyPassword('nope', old)).ok).toBe(false);
  });

  it('never verify a malformed hash', async () => {
    for (const bad of ['', 'plain', 'scrypt$1$2', '$argon2id$garbage'])
      expect((await verifyPassword('x', bad)).ok).toBe(false);
  });
});
