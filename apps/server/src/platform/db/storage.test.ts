import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage, StorageError } from './storage';

/** An embedded database that cannot be opened is never replaced by a new one (issue 14 §8). PGlite only. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('an embedded database that cannot be opened', () => {
  it('stops the start with a clear message naming it, and is left as it was', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pfp-storage-'));
    dirs.push(dataDir);
    const db = await openStorage({ dataDir, databaseUrl: undefined });
    await db.destroy();
    const dbDir = path.join(dataDir, 'db');
    writeFileSync(path.join(dbDir, 'global', 'pg_control'), 'not a control file');
    const err = await openStorage({ dataDir, databaseUrl: undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(/cannot be opened/);
    expect((err as Error).message).toContain(dbDir);

    writeFileSync(path.join(dbDir, 'PG_VERSION'), 'x');
    rmSync(path.join(dbDir, 'PG_VERSION'));
    const noVersion = await openStorage({ dataDir, databaseUrl: undefined }).catch((e: unknown) => e);
    expect((noVersion as Error).message).toMatch(/not a database directory/);
  });
});
