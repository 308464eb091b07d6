import type { ChaosFigures } from './chaos';

/** The chaos run's figures as printed by the test and the bench (docs/ha.md's table). */
export function chaosReport(f: ChaosFigures): string[] {
  const lines = [
    `  seed ${f.seed} (CHAOS_SEED=${f.seed} repeats the schedule), ${f.minutes} min`,
    `  faults injected: ${Object.entries(f.faults)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
    `  fixes sent ${f.sent}, acknowledged ${f.acknowledged}, refused (4xx) ${f.refused}; lost ${f.lost}, doubled ${f.doubled}, still open ${f.pending}`,
    `  replay equal: ${f.books.equal ? 'yes' : 'no'} (${f.books.contracts} contracts, ${f.books.accounts} accounts, ${f.books.conditionals} 条件单)`,
  ];
  for (const d of [...f.books.differences, ...f.books.orphans].slice(0, 20)) lines.push(`    ≠ ${d}`);
  lines.push('  acknowledged fix, first try → 200, by the fault of its minute:');
  for (const [k, l] of Object.entries(f.latency))
    lines.push(
      `    ${k.padEnd(12)} n ${String(l.n).padStart(6)}  p50 ${l.p50.toFixed(0)} ms  p99 ${l.p99.toFixed(0)} ms  max ${l.max.toFixed(0)} ms`,
    );
  lines.push(`  replicas that exited by themselves: ${f.crashes.length}`);
  for (const c of f.crashes) lines.push(`    ${c.slice(0, 600)}`);
  lines.push(
    `  business: ${Object.entries(f.business)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  lines.push(
    `  answers: ${Object.entries(f.statuses)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ')}`,
  );
  return lines;
}
