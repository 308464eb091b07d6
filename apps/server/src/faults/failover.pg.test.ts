/**
 * Failover under load (issue 45 §3, docs/ha.md), CI's short form: 50 customers fixing at 50/s on 2 server
 * replicas over scripts/ha-local.sh's HAProxy; the Patroni primary SIGKILLed and never restarted. The bench
 * form (bench/failover.bench.ts) runs the same longer.
 */
import { expect, it } from 'vitest';
import { runFailover } from '../../test/failover';

it('loses no acknowledged fix, doubles none, answers 503 (never 500) while there is no primary, fires each 条件单 once', async () => {
  const f = await runFailover({
    rate: 50,
    customers: 50,
    seconds: 20,
    killAtMs: 5000,
    conditionals: 10,
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(f, null, 2));
  expect(f.acknowledged).toBe(f.sent);
  expect(f.lost).toBe(0);
  expect(f.doubled).toBe(0);
  expect(f.pending).toBe(0);
  expect(f.newPrimary).not.toBe('');
  expect(f.newPrimary).not.toBe(f.killed);
  expect(f.noPrimaryMs).toBeLessThanOrEqual(30_000);
  // While there was no primary: answers (200), refusals (503) or the client's own give-up (0), never a 500.
  expect(Object.keys(f.statuses).filter((s) => !['200', '503', '0'].includes(s))).toEqual([]);
  expect(f.conditionals).toEqual({ triggered: 10, orders: 10, waiting: 0 });
  expect(f.replicasAlive).toBe(true);
}, 300_000);
