import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../test/postgres';
import { freePort, seedDataDir, serverArgs } from '../../../test/server';
import { openDatabase } from './database';

/**
 * Storage (issue 14 §8), as the operator meets it: the real server started on a data directory.
 * On PGlite the database lives in DATA_DIR; in the postgres project, in a database of the run's
 * cluster (DATA_DIR then holds the keys).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const onPostgres = !!process.env.DATABASE_URL;

/**
 * Starts the server (test/server.ts serverArgs: its build or src/main.ts) on a free port; resolves when it is healthy
 * (then stops it) or has exited. A port taken between `freePort` and the server's listen (another suite's server or
 * connection got it first: EADDRINUSE, once under the browser suites' load) is not what this file tests: it starts
 * again on another.
 */
async function start(env: Record<string, string>): Promise<{ code: number | null; output: string; healthy: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const result = await startOn(await freePort(), env);
    if (result.healthy || !result.output.includes('EADDRINUSE') || attempt === 3) return result;
  }
}

function startOn(port: number, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string; healthy: boolean }>((resolve, reject) => {
    const child = spawn(process.execPath, serverArgs(), {
      cwd: serverDir,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        APPS_DIR: '',
        SEED_DEMO: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let healthy = false;
    for (const s of [child.stdout!, child.stderr!]) s.on('data', (d: Buffer) => (output += d.toString()));
    const poll = setInterval(() => {
      void fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => {
          if (r.ok && !healthy) {
            healthy = true;
            child.kill('SIGTERM');
          }
        })
        .catch(() => {});
    }, 200);
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(guard);
      resolve({ code, output, healthy });
    });
  });
}

async function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pfp-storage-'));
  dirs.push(dir);
  const env: Record<string, string> = { DATA_DIR: path.join(dir, 'data') };
  if (onPostgres)
    env.DATABASE_URL = await createDatabase(
      process.env.DATABASE_URL!,
      `s_${path.basename(dir).replace(/\W/g, '_').toLowerCase()}`,
    );
  return { dir: path.join(dir, 'data'), env };
}

function modes(root: string): { path: string; mode: number; dir: boolean }[] {
  const out = [{ path: root, mode: statSync(root).mode & 0o777, dir: true }];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) out.push(...modes(p));
    else if (e.isFile()) out.push({ path: p, mode: statSync(p).mode & 0o777, dir: false });
  }
  return out;
}

describe('the data directory', () => {
  it(
    "is the server user's only (files 0600, directories 0700); a database that lost its tables does not start",
    { timeout: 150_000 },
    async () => {
      const d = await dataDir();
      const first = await start(d.env);
      expect(first.healthy, first.output).toBe(true);
      const all = modes(d.dir);
      expect(all.length).toBeGreaterThan(1);
      for (const f of all) expect(f.mode.toString(8), f.path).toBe(f.dir ? '700' : '600');

      const db = await openDatabase({ databaseUrl: d.env.DATABASE_URL, dataDir: path.join(d.dir, 'db') });
      await sql`drop table trades, orders, contracts, pricer_users cascade`.execute(db);
      await db.destroy();
      const again = await start(d.env);
      expect(again.healthy).toBe(false);
      expect(again.code).not.toBe(0);
      expect(again.output).toMatch(/lost its tables/i);
      expect(again.output).toContain('pricer_users');
      // Nothing was re-created behind the operator's back.
      const check = await openDatabase({ databaseUrl: d.env.DATABASE_URL, dataDir: path.join(d.dir, 'db') });
      const { rows } = await sql<{ t: string | null }>`select to_regclass('pricer_users')::text as t`.execute(check);
      await check.destroy();
      expect(rows[0]!.t).toBeNull();
    },
  );

  it(
    'does not start on an emptied database that this data directory had initialised',
    { timeout: 150_000 },
    async () => {
      const d = await dataDir();
      // What a new directory gets is the test above's: this one starts from the run's migrated template on PGlite
      // (test/server.ts seedDataDir, ~4 CPU-s less than initdb and the migrations), and its first start marks it.
      seedDataDir(d.dir, d.env);
      expect((await start(d.env)).healthy).toBe(true);
      const db = await openDatabase({ databaseUrl: d.env.DATABASE_URL, dataDir: path.join(d.dir, 'db') });
      await sql`drop schema public cascade; create schema public`.execute(db);
      await db.destroy();
      const again = await start(d.env);
      expect(again.healthy).toBe(false);
      expect(again.output).toMatch(/lost its tables: it is empty/);
    },
  );
});
