import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** Debian's PostgreSQL binaries, as test/postgres.ts finds them. */
function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(root, v, 'bin', name);
    if (existsSync(p)) return p;
  }
  throw new Error(`PostgreSQL's ${name} not found: install Debian's postgresql package`);
}

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * ALTER SYSTEM for each setting of the throwaway cluster of test/postgres.ts, then a reload, or a restart when a
 * setting needs one (shared_buffers). pg_ctl restart reuses the original command line (postmaster.opts): same
 * port, socket directory, fsync=off…
 */
export async function tuneCluster(url: string, settings: Record<string, string>, restart: boolean) {
  const dataDir = await withClient(url, async (c) => {
    for (const [name, value] of Object.entries(settings)) {
      if (!/^[a-z_]+$/.test(name)) throw new Error(`bad setting ${name}`);
      await c.query(`alter system set ${name} = '${value.replace(/'/g, "''")}'`);
    }
    await c.query('select pg_reload_conf()');
    return (await c.query<{ data_directory: string }>('show data_directory')).rows[0]!.data_directory;
  });
  if (!restart) return;
  // -l: the server's output must not go to our pipe (execFileSync would wait for it to close).
  const args = ['-D', dataDir, '-l', path.join(dataDir, '..', 'log'), '-w', '-m', 'fast', 'restart'];
  if (process.getuid?.() === 0)
    execFileSync('runuser', ['-u', 'postgres', '--', pgBin('pg_ctl'), ...args], { stdio: 'ignore' });
  else execFileSync(pgBin('pg_ctl'), args, { stdio: 'ignore' });
}

export async function show(url: string, names: string[]): Promise<string> {
  return withClient(url, async (c) => {
    const out: string[] = [];
    for (const n of names) out.push(`${n}=${(await c.query(`show ${n}`)).rows[0][n]}`);
    return out.join(' ');
  });
}
