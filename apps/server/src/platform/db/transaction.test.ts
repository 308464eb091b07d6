/**
 * retryDeadlockVictim's rule (transaction.ts), without a database: a deadlock victim runs once more, after a short
 * wait that lets the transaction that won commit first; a second deadlock in a row, or any other error, is thrown.
 * transaction.pg.test.ts crosses two real transactions on PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { retryDeadlockVictim } from './transaction';

const victim = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('a deadlock victim', () => {
  it('runs once more, not at once but after a few milliseconds', async () => {
    const at: number[] = [];
    const answer = await retryDeadlockVictim(async () => {
      at.push(performance.now());
      if (at.length === 1) throw victim();
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(at).toHaveLength(2);
    // setTimeout's 5 ms, less the rounding of the two clocks.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(4);
  });

  it('is an error when it is the victim again', async () => {
    const again = victim();
    expect(await runsUntilThrown(again)).toBe(2);
  });

  it('is not what any other error is: that is thrown at once', async () => {
    const other = Object.assign(new Error('unique violation'), { code: '23505' });
    expect(await runsUntilThrown(other)).toBe(1);
  });
});

/** How many times retryDeadlockVictim runs a call that always throws `err`, once it has thrown `err` itself. */
async function runsUntilThrown(err: Error): Promise<number> {
  let runs = 0;
  await expect(
    retryDeadlockVictim(async () => {
      runs++;
      throw err;
    }),
  ).rejects.toBe(err);
  return runs;
}
