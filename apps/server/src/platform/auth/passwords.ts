import { hash, verify } from '@node-rs/argon2';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes at OWASP's current minimum: argon2id, m = 19 MiB, t = 2, p = 1 (PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). Hashes of earlier versions (scrypt) still verify and
 * are replaced at the next successful login (`rehash`).
 */
// algorithm 2 = Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax).
export const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

export interface Verified {
  ok: boolean;
  /** Right password, stored at a cost below today's: store hashPassword(password) instead. */
  rehash: boolean;
}

export async function verifyPassword(password: string, stored: string): Promise<Verified> {
  let ok = false;
  if (stored.startsWith('$argon2')) ok = await verify(stored, password).catch(() => false);
  else if (stored.startsWith('scrypt$')) ok = await verifyScrypt(password, stored);
  return { ok, rehash: ok && !stored.startsWith(CURRENT_PREFIX) };
}

const scryptAsync = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** `scrypt$N$r$p$salt$hash` (salt and hash base64), the format before argon2id. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, digest] = stored.split('$');
  if (!n || !r || !p || !salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64');
  if (expected.length < 16) return false;
  const key = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  }).catch(() => undefined);
  return !!key && timingSafeEqual(key, expected);
}

/** A hash to compare against when the user does not exist, so timing does not reveal that. */
export const DUMMY_HASH = await hashPassword(randomBytes(8).toString('hex'));
