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
      if (!/^[a-z_.]+$/.test(name)) throw new Error(`bad setting ${name}`);
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

/** Loads pg_stat_statements into the cluster (a restart): where the database's time goes, per statement. */
export async function enableStatementStats(url: string) {
  await tuneCluster(url, { shared_preload_libraries: 'pg_stat_statements' }, true);
  // (the library's own settings exist only once it is loaded)
  // track 'all': the statements of triggers and functions too, each on its own line
  await tuneCluster(url, { 'pg_stat_statements.track_planning': 'on', 'pg_stat_statements.track': 'all' }, false);
  await withClient(url, (c) => c.query('create extension if not exists pg_stat_statements'));
}

/**
 * The statements that took the most time (execution + planning), those of one shape taken together
 * (a multi-row VALUES of another length is another entry for PostgreSQL).
 */
export async function printStatementStats(url: string, top = 15) {
  const rows = await withClient(
    url,
    async (c) =>
      (
        await c.query<{ calls: string; exec: number; plan: number; query: string }>(
          'select calls, total_exec_time as exec, total_plan_time as plan, query from pg_stat_statements',
        )
      ).rows,
  );
  const byShape = new Map<string, { calls: number; exec: number; plan: number }>();
  for (const r of rows) {
    const shape = r.query
      .replace(/[\s"]+/g, ' ')
      .trim()
      .slice(0, 100);
    const e = byShape.get(shape) ?? { calls: 0, exec: 0, plan: 0 };
    e.calls += Number(r.calls);
    e.exec += r.exec;
    e.plan += r.plan;
    byShape.set(shape, e);
  }
  console.log('statements by total time (calls, execution ms, planning ms, statement):');
  for (const [shape, e] of [...byShape].sort((a, b) => b[1].exec + b[1].plan - a[1].exec - a[1].plan).slice(0, top)) {
    console.log(
      `  ${String(e.calls).padStart(7)} ${e.exec.toFixed(0).padStart(7)} ${e.plan.toFixed(0).padStart(6)}  ${shape}`,
    );
  }
}
