import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';

/** Debian's PostgreSQL binaries (apt-get install postgresql). */
function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(root, v, 'bin', name);
    if (existsSync(p)) return p;
  }
  throw new Error(`PostgreSQL's ${name} not found: install Debian's postgresql package`);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/**
 * A throwaway PostgreSQL cluster on a loopback port: initdb into a temp dir, pg_ctl start.
 * Runs as the current user, or as `postgres` when that is root (PostgreSQL refuses root).
 */
export async function startPostgres(): Promise<{
  url: string;
  stop: () => void;
  /** pg_ctl restart -m fast: every connection is cut, the server is back on the same port. */
  restart: () => void;
  /** The postmaster and its children (backends, background workers), for SIGSTOP / SIGCONT. */
  pids: () => number[];
}> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pfp-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(pgBin('initdb'), ['-D', data, '-U', 'pfp', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  run(pgBin('pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    'start',
    '-o',
    `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
  ]);
  const stop = () => {
    try {
      run(pgBin('pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const restart = () => run(pgBin('pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-m', 'fast', 'restart']);
  const pids = () => {
    const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  };
  return { url: `postgres://pfp@127.0.0.1:${port}/postgres`, stop, restart, pids };
}

/** The migrated template database in the run's cluster (test/db.ts). */
export const PG_TEMPLATE = 'pfp_template';

/** A fresh database in the cluster, so suites don't see each other's rows; a copy of `template` when given. */
export async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  await client.end();
  return url.replace(/\/[^/]*$/, `/${name}`);
}
