/**
 * Adds a trader to the embedded identity provider, or resets its password:
 *
 *   node dist/addTrader.js --username u --password p [--name n] [--email e] [--id sub]
 *
 * Uses the server's database settings (DATABASE_URL, or DATA_DIR for embedded PGlite).
 * Runs the migrations first (002_identity must be registered in database.ts).
 * PASSWORD in the environment may replace --password (keeps it out of the shell history).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { openStorage } from '../platform/db/storage';
import { addTrader, validateTraderInput, type AddTraderInput } from './traders';

const USAGE = 'usage: addTrader --username <u> --password <p> [--name <n>] [--email <e>] [--id <sub>]';

export function parseAddTraderArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AddTraderInput {
  const { values } = parseArgs({
    args: argv,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      id: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const input: AddTraderInput = {
    username: values.username ?? '',
    password: values.password ?? env.PASSWORD ?? '',
    name: values.name,
    email: values.email,
    id: values.id,
  };
  const problem = validateTraderInput(input);
  if (problem) throw new Error(`${problem}\n${USAGE}`);
  return input;
}

export async function main(argv = process.argv.slice(2)) {
  const input = parseAddTraderArgs(argv);
  const config = loadConfig();
  // Checked and migrated as the server does it: never a new database over a lost one.
  const db = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const trader = await addTrader(db, input);
    console.log(`${trader.created ? 'added' : 'updated'} trader ${trader.username} (sub ${trader.id})`);
  } finally {
    await db.destroy();
  }
}

const invokedDirectly = process.argv[1] && /addTrader\.(js|ts|mjs|cjs)$/.test(process.argv[1]);
if (invokedDirectly) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
