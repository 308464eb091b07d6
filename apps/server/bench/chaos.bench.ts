/**
 * An hour of business under random faults, the bench form of src/faults/chaos.pg.test.ts (issue 45 item 4,
 * docs/ha.md): CHAOS_MINUTES (default 60) minutes, one fault a minute, the seed printed (CHAOS_SEED repeats it).
 */
import { runChaos } from '../test/chaos';
import { chaosReport } from '../test/chaosReport';
import { numberArg } from './lib/args';
import { header, footer } from './lib/stats';

const minutes = Number(process.env.CHAOS_MINUTES || 60);
const seed = Number(process.env.CHAOS_SEED || Date.now() % 1_000_000);
header(`chaos.bench: ${minutes} min of business, one random fault a minute (seed ${seed})`);
const f = await runChaos({
  minutes,
  seed,
  rate: numberArg('rate', 5),
  customers: numberArg('customers', 12),
  log: (line) => console.log(line),
});
for (const line of chaosReport(f)) console.log(line);
footer();
if (f.lost || f.doubled || !f.books.equal) process.exitCode = 1;
