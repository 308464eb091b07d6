/**
 * Changed quotes the simulated exchange produces per second of wall time (measureQuoteThroughput in
 * src/market/simExchange.ts: step() in a loop on a simulated clock, 50 option chains subscribed, the design load).
 * The share of a core the thread actually got is printed next to it (other work on the machine lowers it), and
 * the rate per CPU-second derived from it.
 *
 *   npx tsx bench/quotes.bench.ts
 *
 * Single thread, in this process; a few seconds. Not part of CI.
 */
import { measureQuoteThroughput } from '../src/market/simExchange';
import { fmt, footer, header } from './lib/stats';

const ROUNDS = 5;
const MS = 1000;
const CHAINS = 50;

header(`quotes.bench: measureQuoteThroughput(${MS} ms, ${CHAINS} chains) × ${ROUNDS}`);
measureQuoteThroughput(300, CHAINS); // warm-up (JIT), not reported
const results: number[] = [];
const perCpu: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const perSecond = measureQuoteThroughput(MS, CHAINS);
  const cpu = process.cpuUsage(cpu0);
  // Includes building the exchange and subscribing the chains (outside the timed loop): a slight underestimate.
  const share = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
  results.push(perSecond);
  perCpu.push(perSecond / Math.min(1, share));
  console.log(
    `  round ${i + 1}: ${fmt(perSecond / 1000)}k changed quotes/s (this thread had ${fmt(share * 100, 0)} % of a core → ${fmt(perSecond / Math.min(1, share) / 1000)}k per CPU-second)`,
  );
}
const sorted = [...results].sort((a, b) => a - b);
console.log(
  `  median ${fmt(sorted[Math.floor(sorted.length / 2)]! / 1000)}k quotes/s, best ${fmt(sorted.at(-1)! / 1000)}k, worst ${fmt(sorted[0]! / 1000)}k (README: about 150k)`,
);
const cpuSorted = [...perCpu].sort((a, b) => a - b);
console.log(`  per CPU-second: median ${fmt(cpuSorted[Math.floor(cpuSorted.length / 2)]! / 1000)}k quotes`);
footer();
