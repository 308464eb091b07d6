import { describe, expect, it } from 'vitest';
import { Batcher } from './batches';

/** A flush the test finishes by hand, recording what each flush was given. */
function controlledFlush() {
  const flushes: { items: number[]; finish: (ok: boolean) => void }[] = [];
  let running = 0;
  let most = 0;
  const flush = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      most = Math.max(most, ++running);
      flushes.push({
        items,
        finish: (ok) => {
          running--;
          if (ok) resolve(items.map((i) => `done ${i}`));
          else reject(new Error(`flush of ${items.join(',')} failed`));
        },
      });
    });
  return { flush, flushes, most: () => most };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('Batcher (group commit)', () => {
  it('flushes the first item alone at once, and what came meanwhile together in the next flush, in order', async () => {
    const c = controlledFlush();
    const b = new Batcher(c.flush);
    const first = b.add(1);
    expect(c.flushes.map((f) => f.items)).toEqual([[1]]);
    const later = [b.add(2), b.add(3), b.add(4)];
    await settle();
    expect(c.flushes).toHaveLength(1); // never two flushes at once
    c.flushes[0]!.finish(true);
    expect(await first).toBe('done 1');
    await settle();
    expect(c.flushes.map((f) => f.items)).toEqual([[1], [2, 3, 4]]);
    c.flushes[1]!.finish(true);
    expect(await Promise.all(later)).toEqual(['done 2', 'done 3', 'done 4']);
    expect(c.most()).toBe(1);
  });

  it('rejects the callers of a failed flush only, and goes on with the next', async () => {
    const c = controlledFlush();
    const b = new Batcher(c.flush);
    const first = b.add(1);
    const failing = [b.add(2), b.add(3)];
    c.flushes[0]!.finish(true);
    await first;
    await settle();
    const after = b.add(4);
    c.flushes[1]!.finish(false);
    for (const p of failing) await expect(p).rejects.toThrow('flush of 2,3 failed');
    await settle();
    expect(c.flushes.map((f) => f.items)).toEqual([[1], [2, 3], [4]]);
    c.flushes[2]!.finish(true);
    expect(await after).toBe('done 4');
  });
});
