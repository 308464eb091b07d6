import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ports ha-local.sh takes from its base (etcd clients and peers, Patroni REST, PostgreSQL, HAProxy). */
const OFFSETS = [1, 2, 3, 11, 12, 13, 21, 22, 31, 32, 40];
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/**
 * A base port whose every port is free, below the kernel's ephemeral range (32768–60999, where the other suites'
 * servers and clients take theirs): a Patroni REST port taken by another test once failed the run.
 */
async function freeBase(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const base = 20_000 + Math.floor(Math.random() * 120) * 100;
    if ((await Promise.all(OFFSETS.map((o) => portFree(base + o)))).every(Boolean)) return base;
  }
  throw new Error('no free port range for ha-local.sh between 20000 and 32000');
}
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/ha-local.sh');

/**
 * The highly available topology of scripts/ha-local.sh (3 etcd, 2 Patroni-managed PostgreSQL nodes
 * with synchronous replication, HAProxy) on loopback ports of its own, for the failover suites.
 */
export async function startHa() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pfp-ha-'));
  // HA_BASE_PORT set: that range (a developer's or a shared machine's own); otherwise a free one.
  const env = { ...process.env, HA_BASE_PORT: process.env.HA_BASE_PORT || String(await freeBase()) };
  const base = Number(env.HA_BASE_PORT);
  const ha = (cmd: string) => run('bash', [script, cmd, dir], { env, timeout: 180_000 });
  let started = false;
  try {
    const { stdout } = await ha('start');
    started = true;
    const url = /DATABASE_URL=(\S+)/.exec(stdout)?.[1];
    if (!url) throw new Error(`ha-local.sh start printed no DATABASE_URL:\n${stdout}`);
    return {
      url,
      /** SIGKILLs the primary's PostgreSQL and its Patroni (never restarted: its machine is lost); the member. */
      killPrimary: async () => (await ha('kill-primary')).stdout.trim(),
      /** A base backup of the primary (pg_basebackup; its WAL comes from the archive); its directory. */
      backup: async () => (await ha('backup')).stdout.trim().split('\n').at(-1)!,
      /** A new cluster on `port` from `backup` and the WAL archive, recovered to `point` and promoted; its URL. */
      restore: async (backup: string, point: string, port: number) => {
        const { stdout } = await run('bash', [script, 'restore', dir, backup, point, String(port)], {
          env,
          timeout: 180_000,
        });
        return /DATABASE_URL=(\S+)/.exec(stdout)![1]!;
      },
      /** A member killed by killPrimary started again: it rejoins as a standby. */
      revive: async (member: string) =>
        void (await run('bash', [script, 'revive', dir, member], { env, timeout: 60_000 })),
      /** SIGSTOPs the primary's PostgreSQL (postmaster and backends); the member. */
      freezePrimary: async () => (await ha('freeze-primary')).stdout.trim(),
      /** SIGCONT to what freezePrimary stopped. */
      thaw: async () => void (await ha('thaw')),
      /**
       * Whether Patroni names a synchronous standby (its `/sync` key, read through any member's REST API). Only that
       * member may be promoted when the primary is lost: a standby PostgreSQL already reports as `sync` is not yet
       * one Patroni will fail over to, so a second loss in that moment leaves the cluster without a primary.
       */
      syncStandbyNamed: async () => {
        for (const port of [base + 21, base + 22]) {
          const cluster = await fetch(`http://127.0.0.1:${port}/cluster`, { signal: AbortSignal.timeout(2_000) })
            .then((r) => r.json() as Promise<{ members?: { role?: string; state?: string }[] }>)
            .catch(() => undefined);
          if (cluster?.members)
            return cluster.members.some(
              (m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state ?? ''),
            );
        }
        return false;
      },
      /** The current primary's member name, '' while there is none. */
      primary: async () => (await ha('primary')).stdout.trim(),
      stop: async () => {
        await ha('stop').catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (!started) await ha('stop').catch(() => undefined);
    throw err;
  }
}
