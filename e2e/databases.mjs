// The suites' databases, made once before their servers start (playwright.config.ts `webServer`): the first suite's,
// with the first-time trader added (a CLI write, so before any server runs), and a copy of it for each other suite.
//
//   node e2e/databases.mjs <data dir> <suite>[=<database URL>]… -- <the trader to add: addTrader's arguments>
//
// With URLs (playwright.config.ts gives them where PostgreSQL's binaries are installed): a throwaway cluster in
// <data dir>/pg, listening on its socket only, the URLs' databases in it, the others copied from the first
// (`CREATE DATABASE … TEMPLATE`). Without: the embedded PGlite, the first suite's data directory copied for the
// others.
import { execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const [dataDir, ...args] = argv.slice(0, argv.indexOf('--'));
const trader = argv.slice(argv.indexOf('--') + 1);
if (!dataDir || args.length === 0 || trader.length === 0)
  throw new Error('usage: node e2e/databases.mjs <data dir> <suite>[=<URL>]… -- <addTrader arguments>');
const suites = args.map((arg) => arg.split('=')[0]);
const urls = Object.fromEntries(args.map((arg) => [arg.split('=')[0], arg.slice(arg.indexOf('=') + 1)]));
const [first, ...others] = suites;
const addTrader = (env) =>
  execFileSync(process.execPath, [path.join(root, 'apps/server/dist/identity/addTrader.js'), ...trader], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: 'inherit',
  });

if (args.every((arg) => arg.includes('='))) {
  const bin = postgresBin();
  const pg = path.join(dataDir, 'pg');
  mkdirSync(pg, { recursive: true });
  // PostgreSQL refuses to run as root: the cluster is the postgres user's then (as in the server's tests).
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(pg, ...ids('postgres'));
  const run = (cmd, args) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  const data = path.join(pg, 'data');
  run('initdb', ['-D', data, '-U', 'pfp', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  // Throwaway data: no fsync. Sockets only, in the cluster's folder: no port to collide with another run.
  const options = `-c listen_addresses= -k ${pg} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run('pg_ctl', ['-D', data, '-l', path.join(pg, 'log'), '-w', 'start', '-o', `${options} -c max_connections=200`]);
  const sql = (statement) =>
    execFileSync(path.join(bin, 'psql'), ['-h', pg, '-U', 'pfp', '-d', 'postgres', '-qtAc', statement]);
  const database = (suite) => new URL(urls[suite]).pathname.slice(1);
  sql(`create database ${database(first)}`);
  addTrader({ DATABASE_URL: urls[first], DATA_DIR: path.join(dataDir, first) });
  for (const suite of others) sql(`create database ${database(suite)} template ${database(first)}`);
} else {
  addTrader({ DATA_DIR: path.join(dataDir, first) });
  for (const suite of others) cpSync(path.join(dataDir, first), path.join(dataDir, suite), { recursive: true });
}

/** The newest PostgreSQL's bin folder of Debian's layout. */
function postgresBin() {
  const dir = '/usr/lib/postgresql';
  const version = readdirSync(dir)
    .filter((v) => existsSync(path.join(dir, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error(`no PostgreSQL in ${dir}: install Debian's postgresql, or run with E2E_DB=pglite`);
  return path.join(dir, version, 'bin');
}

function ids(user) {
  return ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim()));
}
