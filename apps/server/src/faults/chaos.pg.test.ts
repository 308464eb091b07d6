/**
 * Business under random faults (issue 45 item 4, docs/ha.md), CI's short form: CHAOS_MINUTES (default 5: each
 * of the five fault kinds once, in a seeded random order) of customers fixing, 条件单, 均价 fixings, margin
 * calls, deposits and rolls on 2 server replicas behind a gateway over scripts/ha-local.sh; then no acknowledged
 * fix lost or doubled, and the books equal to a replay of the audit log alone. The bench form
 * (bench/chaos.bench.ts) runs an hour.
 */
import { expect, it } from 'vitest';
import { FAULT_KINDS, runChaos } from '../../test/chaos';
import { chaosReport } from '../../test/chaosReport';

const minutes = Number(process.env.CHAOS_MINUTES || 5);
const seed = Number(process.env.CHAOS_SEED || Date.now() % 1_000_000);

it(
  `loses and doubles no acknowledged fix under ${minutes} min of random faults, and the books equal the audit log's replay`,
  async () => {
    const f = await runChaos({ minutes, seed, rate: 5, customers: 12, log: (line) => console.log(line) });
    for (const line of chaosReport(f)) console.log(line);
    if (minutes >= FAULT_KINDS.length) for (const k of FAULT_KINDS) expect(f.faults[k], k).toBeGreaterThanOrEqual(1);
    expect(f.acknowledged).toBeGreaterThan(0);
    // No replica went down by itself (a failover once ended one: trading/routerClose.test.ts).
    expect(f.crashes).toEqual([]);
    expect(f.lost).toBe(0);
    expect(f.doubled).toBe(0);
    expect(f.pending).toBe(0);
    expect(f.books.differences).toEqual([]);
    expect(f.books.orphans).toEqual([]);
    expect(f.books.equal).toBe(true);
    // Every kind of business happened.
    expect(f.business['条件单 fired']).toBeGreaterThan(0);
    expect(f.business['均价 fixings']).toBeGreaterThan(0);
    expect(f.business.roll).toBeGreaterThan(0);
    expect(f.business.deposit).toBeGreaterThan(0);
  },
  (minutes * 60 + 600) * 1000,
);
