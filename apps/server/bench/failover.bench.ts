/**
 * Failover under load, the bench form of src/faults/failover.pg.test.ts (issue 45 §3, docs/ha.md): 50 customers
 * fixing at 50/s on 2 server replicas over scripts/ha-local.sh (3 etcd, 2 Patroni nodes, synchronous
 * replication, HAProxy); the primary SIGKILLed at 15 s and never restarted; 60 s of load in all.
 */
import { runFailover } from '../test/failover';
import { numberArg } from './lib/args';
import { header, footer } from './lib/stats';

const seconds = numberArg('seconds', 60);
header(`failover.bench: 50 customers fixing at 50/s for ${seconds} s, the Patroni primary killed at 15 s`);
const f = await runFailover({
  rate: numberArg('rate', 50),
  customers: numberArg('customers', 50),
  seconds,
  killAtMs: 15_000,
  conditionals: 10,
  log: (line) => console.log(line),
});
const refused = Object.entries(f.statuses)
  .map(([s, n]) => `${s}: ${n}`)
  .join(', ');
console.log(
  `  fixes sent / acknowledged / found afterwards: ${f.sent} / ${f.acknowledged} / ${f.acknowledged - f.lost}`,
);
console.log(`  lost ${f.lost}, doubled ${f.doubled}, still PENDING ${f.pending}`);
console.log(
  `  ${f.killed} killed → ${f.newPrimary} primary after ${(f.noPrimaryMs / 1000).toFixed(1)} s (goal ≤ 30 s)`,
);
console.log(`  answers while there was no primary: ${refused}`);
console.log(
  `  acknowledged fix latency (first try → 200): p50 ${f.latency.p50.toFixed(0)} ms, p99 ${f.latency.p99.toFixed(0)} ms, max ${f.latency.max.toFixed(0)} ms`,
);
console.log(
  `  条件单 fired across the kill: ${f.conditionals.triggered} triggered, ${f.conditionals.orders} orders, ${f.conditionals.waiting} waiting`,
);
footer();
