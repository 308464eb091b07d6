import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/ha-local.sh');

/**
 * The highly available topology of scripts/ha-local.sh (3 etcd, 2 Patroni-managed PostgreSQL nodes
 * with synchronous replication, HAProxy) on loopback ports of its own, for the failover suites.
 */
export async function startHa() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pfp-ha-'));
  // A port range of its own: two runs at once (or a port left in TIME_WAIT) do not meet.
  const env = { ...process.env, HA_BASE_PORT: String(20_000 + Math.floor(Math.random() * 400) * 100) };
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
