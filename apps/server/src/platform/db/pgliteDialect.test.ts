import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../../../test/db';
import { openDatabase } from './database';
import { BACKGROUND_MAX_WAIT_MS } from './pgliteDialect';
import { asBackground } from './priority';
import type { DB } from './schema';

/** PGlite's one connection: requests before background work, and the event loop turns between them. */
describe('PGlite connection hand-out', () => {
  let db: Kysely<DB> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });
  const transaction = (d: Kysely<DB>) =>
    d.transaction().execute(async (tx) => {
      await sql`select 1`.execute(tx);
      await sql`select 2`.execute(tx);
    });
  /** A started database (its first query waits for PGlite to start), from the run's template (test/db.ts). */
  const open = async () => {
    const loadDataDir = pgliteTemplate();
    db = await openDatabase({ dataDir: 'memory://', ...(loadDataDir ? { loadDataDir } : {}) });
    await transaction(db);
    return db;
  };

  it('serves a request before background work queued ahead of it', async () => {
    const d = await open();
    const done: string[] = [];
    const background = Array.from({ length: 30 }, (_, i) =>
      asBackground(() => transaction(d)).then(() => done.push(`bg${i}`)),
    );
    await transaction(d).then(() => done.push('request'));
    await Promise.all(background);
    expect(done.indexOf('request')).toBeLessThanOrEqual(1);
  });

  it('lets the event loop turn between background transactions', async () => {
    const d = await open();
    let finished = 0;
    let seenByTimer: number | undefined;
    // A timer due at once stands for a socket with a request waiting to be read.
    setTimeout(() => (seenByTimer = finished), 0);
    await asBackground(async () => {
      for (let i = 0; i < 50; i++) {
        await transaction(d);
        finished++;
      }
    });
    expect(seenByTimer).toBeDefined();
    expect(seenByTimer!).toBeLessThan(5);
  });

  it(`serves background work that has waited ${BACKGROUND_MAX_WAIT_MS} ms while requests keep coming`, async () => {
    const d = await open();
    const until = performance.now() + 2.5 * BACKGROUND_MAX_WAIT_MS;
    let stoppedAt = Infinity;
    // Two request streams: whenever the connection is released, a request is waiting.
    const stream = async () => {
      while (performance.now() < until) await transaction(d);
      stoppedAt = Math.min(stoppedAt, performance.now());
    };
    const streams = [stream(), stream()];
    await new Promise((r) => setTimeout(r, 50));
    const start = performance.now();
    let servedAfter = 0;
    await asBackground(() => transaction(d)).then(() => (servedAfter = performance.now() - start));
    await Promise.all(streams);
    expect(servedAfter).toBeGreaterThanOrEqual(BACKGROUND_MAX_WAIT_MS - 5);
    expect(start + servedAfter).toBeLessThan(stoppedAt);
  });
});
