import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * SECRET_KEY, or one generated once into DATA_DIR/secret.key (mode 0600). From it come the
 * AES-256-GCM key for broker passwords and the HMAC key of pricer tokens.
 */
export function loadSecret(value: string | undefined, dataDir: string): string {
  if (value) return value;
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export const deriveKey = (secret: string, purpose: string) =>
  createHash('sha256').update(`${purpose}\0${secret}`).digest();

export class SecretBox {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = deriveKey(secret, 'broker-password');
  }
  /** `v1.iv.tag.ciphertext`, base64url. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }
  decrypt(boxed: string): string {
    const [v, iv, tag, data] = boxed.split('.');
    if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
