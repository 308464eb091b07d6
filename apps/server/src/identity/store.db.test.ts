import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../platform/auth/secrets';
import { openDatabase, type Database } from '../platform/db/database';
import { openMigratedDatabase } from '../../test/db';
import { KyselyAdapter } from './adapter';
import { main } from './addTrader';
import { loadSigningKeys } from './keys';
import { addTrader, findTraderById, verifyTrader } from './traders';

describe('identity storage', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openMigratedDatabase();
  });
  afterAll(() => db.destroy());

  describe('addTrader', () => {
    it('creates, then updates the password of the same trader', async () => {
      const first = await addTrader(db, { username: ' Alice ', password: 'one', name: '爱丽丝' });
      expect(first).toMatchObject({ username: 'alice', name: '爱丽丝', email: null, created: true });
      expect(first.id).toMatch(/^[0-9a-f-]{36}$/);

      const second = await addTrader(db, { username: 'ALICE', password: 'two', email: 'a@example.com' });
      expect(second).toMatchObject({ id: first.id, name: '爱丽丝', email: 'a@example.com', created: false });
      expect(await verifyTrader(db, 'alice', 'one')).toBeUndefined();
      expect(await verifyTrader(db, 'Alice', 'two')).toMatchObject({ id: first.id, username: 'alice' });
      expect(await verifyTrader(db, 'nobody', 'two')).toBeUndefined();
      expect(await findTraderById(db, first.id)).not.toHaveProperty('password_hash');
    });

    it('keeps a given id (e.g. a Keycloak sub) and rejects bad input', async () => {
      const t = await addTrader(db, { username: 'bob', password: 'pw', id: 'f3b1c2d4-kc-sub' });
      expect(t.id).toBe('f3b1c2d4-kc-sub');
      await expect(addTrader(db, { username: '', password: 'pw' })).rejects.toThrow(/username/);
      await expect(addTrader(db, { username: 'a b', password: 'pw' })).rejects.toThrow(/spaces/);
      await expect(addTrader(db, { username: 'carol', password: '' })).rejects.toThrow(/password/);
      await expect(addTrader(db, { username: 'carol', password: 'pw', email: 'nope' })).rejects.toThrow(/e-mail/);
    });
  });

  describe('KyselyAdapter', () => {
    const adapter = (type: string) => new KyselyAdapter(db, type);

    it('upserts, finds, consumes and destroys', async () => {
      const codes = adapter('AuthorizationCode');
      await codes.upsert('c1', { jti: 'c1', grantId: 'g1', accountId: 'a' }, 60);
      expect(await codes.find('c1')).toEqual({ jti: 'c1', grantId: 'g1', accountId: 'a' });
      expect(await adapter('RefreshToken').find('c1')).toBeUndefined();

      await codes.upsert('c1', { jti: 'c1', grantId: 'g1', accountId: 'b' }, 60);
      expect((await codes.find('c1'))?.accountId).toBe('b');

      await codes.consume('c1');
      expect((await codes.find('c1'))?.consumed).toBeGreaterThan(0);

      await codes.destroy('c1');
      expect(await codes.find('c1')).toBeUndefined();
    });

    it('finds sessions by uid and device codes by user code', async () => {
      await adapter('Session').upsert('s1', { jti: 's1', uid: 'u1', accountId: 'a' }, 60);
      expect((await adapter('Session').findByUid('u1'))?.jti).toBe('s1');
      await adapter('DeviceCode').upsert('d1', { jti: 'd1', userCode: 'ABCD' }, 60);
      expect((await adapter('DeviceCode').findByUserCode('ABCD'))?.jti).toBe('d1');
    });

    it('revokes by grant, only within its model', async () => {
      await adapter('RefreshToken').upsert('r1', { jti: 'r1', grantId: 'g2' }, 60);
      await adapter('RefreshToken').upsert('r2', { jti: 'r2', grantId: 'g3' }, 60);
      await adapter('AccessToken').upsert('a1', { jti: 'a1', grantId: 'g2' }, 60);
      await adapter('RefreshToken').revokeByGrantId('g2');
      expect(await adapter('RefreshToken').find('r1')).toBeUndefined();
      expect(await adapter('RefreshToken').find('r2')).toBeDefined();
      expect(await adapter('AccessToken').find('a1')).toBeDefined();
    });

    it('hides expired rows at once and sweeps them later', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const grants = adapter('Grant');
        await grants.upsert('old', { jti: 'old' }, 1);
        await grants.upsert('forever', { jti: 'forever' });
        vi.setSystemTime(Date.now() + 2_000);
        expect(await grants.find('old')).toBeUndefined();
        expect(await grants.find('forever')).toBeDefined();

        vi.setSystemTime(Date.now() + 11 * 60_000);
        await grants.upsert('new', { jti: 'new' }, 60);
        const left = await db.selectFrom('oidc_payloads').select('id').where('type', '=', 'Grant').execute();
        expect(left.map((r) => r.id).sort()).toEqual(['forever', 'new']);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('signing keys', () => {
    it('are generated once and then reloaded', async () => {
      const idb = db;
      const first = await loadSigningKeys(idb);
      const again = await loadSigningKeys(idb);
      expect(again).toEqual(first);
      expect(first.privateJwks[0]).toHaveProperty('d');
      expect(first.publicJwks.keys[0]).not.toHaveProperty('d');
      expect(first.publicJwks.keys[0]).toMatchObject({
        kty: 'RSA',
        alg: 'RS256',
        use: 'sig',
        kid: first.privateJwks[0]!.kid,
      });
    });

    it('can be sealed at rest', async () => {
      const idb = db;
      await idb.deleteFrom('oidc_keys').execute();
      const box = new SecretBox('test-secret');
      const keys = await loadSigningKeys(idb, box);
      const row = await idb.selectFrom('oidc_keys').select('jwk').executeTakeFirstOrThrow();
      expect(row.jwk).not.toHaveProperty('d');
      expect(typeof row.jwk.enc).toBe('string');
      expect(await loadSigningKeys(idb, box)).toEqual(keys);
      await expect(loadSigningKeys(idb)).rejects.toThrow(/sealed/);
      // Another instance on the same database with another SECRET_KEY is told what is wrong.
      await expect(loadSigningKeys(idb, new SecretBox('another-secret'))).rejects.toThrow(/same SECRET_KEY/);
    });
  });
});

describe('addTrader CLI', () => {
  it('adds a trader to the configured database', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pfp-addtrader-'));
    const saved = process.env.DATA_DIR;
    process.env.DATA_DIR = dataDir;
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await main(['--username', 'cli-user', '--password', 'pw-1', '--name', '王五']);
      await main(['--username', 'cli-user', '--password', 'pw-2']);
      expect(log.mock.calls.map((c) => String(c[0]).split(' (')[0])).toEqual([
        'added trader cli-user',
        'updated trader cli-user',
      ]);
      const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'db') });
      try {
        expect(await verifyTrader(db, 'cli-user', 'pw-2')).toMatchObject({ name: '王五' });
      } finally {
        await db.destroy();
      }
    } finally {
      log.mockRestore();
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
