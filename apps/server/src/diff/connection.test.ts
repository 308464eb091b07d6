import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, DiffConnection, type DiffCloseInfo } from './connection';
import { FakeDiffServer } from '../../test/diff/fakeServer';
import { getPath, type JsonObject } from './mergePatch';
import { sleep, unusedPort, waitFor } from '../../test/diff/testSupport';

const FAST = { initialMs: 10, maxMs: 40, factor: 2, jitter: 0.5 };

describe('backoffDelay', () => {
  it('grows exponentially from initialMs and never exceeds maxMs, whatever the jitter draws', () => {
    const opts = { initialMs: 100, maxMs: 5_000, factor: 2, jitter: 0.5 };
    expect(backoffDelay(0, opts, () => 0)).toBe(100);
    expect(backoffDelay(1, opts, () => 0)).toBe(200);
    expect(backoffDelay(3, opts, () => 0)).toBe(800);
    expect(backoffDelay(3, opts, () => 1)).toBe(400);
    for (const attempt of [0, 1, 5, 6, 7, 20, 1_000, Number.MAX_SAFE_INTEGER]) {
      for (const r of [0, 0.25, 0.999, 1, Math.random()]) {
        const d = backoffDelay(attempt, opts, () => r);
        expect(d).toBeLessThanOrEqual(5_000);
        expect(d).toBeGreaterThanOrEqual(Math.min(5_000, 100 * 2 ** Math.min(attempt, 64)) * 0.5 - 1);
      }
    }
    expect(backoffDelay(40, DEFAULT_BACKOFF)).toBeLessThanOrEqual(DEFAULT_BACKOFF.maxMs);
  });

  it('clamps odd options and random values', () => {
    expect(backoffDelay(2, { initialMs: 10, maxMs: 1_000, factor: 0.5, jitter: 3 }, () => 2)).toBe(0);
    expect(backoffDelay(-3, { initialMs: 10, maxMs: 1_000, factor: 2, jitter: 0 }, () => 0.7)).toBe(10);
  });
});

describe('DiffConnection', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fake(): Promise<FakeDiffServer> {
    const server = await FakeDiffServer.start();
    cleanups.push(() => server.close());
    return server;
  }

  function connection(url: string): DiffConnection {
    const conn = new DiffConnection({ url, backoff: FAST, pingIntervalMs: 0 });
    cleanups.push(() => conn.close());
    return conn;
  }

  it('keeps retrying a dead address with bounded back-off, and stops for good on close()', async () => {
    const conn = connection(`ws://127.0.0.1:${await unusedPort()}`);
    const closes: DiffCloseInfo[] = [];
    conn.onClose((info) => closes.push(info));
    conn.start();
    await waitFor(() => closes.length >= 6, 5_000, 'six failed attempts');
    const delays = closes.map((c) => c.reconnectInMs ?? -1);
    expect(delays.every((d) => d >= 0 && d <= FAST.maxMs)).toBe(true);
    // From the third retry on the base delay is capped: jittered within [maxMs/2, maxMs].
    expect(delays.slice(3).every((d) => d >= FAST.maxMs / 2)).toBe(true);
    expect(conn.state).toBe('connecting');
    await conn.close();
    expect(conn.state).toBe('closed');
    const count = closes.length;
    await sleep(150);
    expect(closes.length).toBe(count);
  });

  it('peeks after connecting and after each rtn_data, applying the patches and dropping notifies', async () => {
    const server = await fake();
    const conn = connection(server.url);
    const batches: JsonObject[][] = [];
    conn.onData((patches) => batches.push(patches));
    conn.setStanding('subscribe_quote', { aid: 'subscribe_quote', ins_list: 'SHFE.cu2601' });
    conn.start();
    await waitFor(() => getPath(conn.data, 'quotes', 'SHFE.cu2601', 'last_price') === 80000, 5_000, 'first quote');
    expect(getPath(conn.data, 'ins_list')).toBe('SHFE.cu2601');
    for (const price of [80010, 80020, 80030]) {
      server.setQuote('SHFE.cu2601', { last_price: price });
      await waitFor(() => getPath(conn.data, 'quotes', 'SHFE.cu2601', 'last_price') === price, 5_000, `price ${price}`);
    }
    server.notifyAll('INFO', 'hello');
    await waitFor(() => batches.some((b) => b.some((p) => getPath(p, 'notify') !== undefined)), 5_000, 'notify');
    expect(conn.data.notify).toBeUndefined();
    expect(getPath(conn.data, 'quotes', 'SHFE.cu2601', 'bid_price1')).toBe(79990);
  });

  it('reconnects after the server drops it and re-sends the standing instructions first', async () => {
    const server = await fake();
    const conn = connection(server.url);
    const opened: number[] = [];
    conn.onOpen(() => opened.push(conn.connectCount));
    conn.setStanding('subscribe_quote', { aid: 'subscribe_quote', ins_list: 'DCE.m2601' });
    conn.start();
    await waitFor(() => getPath(conn.data, 'quotes', 'DCE.m2601', 'last_price'), 5_000, 'quote');
    server.dropConnections();
    await waitFor(() => conn.connectCount === 2 && conn.isOpen(), 5_000, 'reconnect');
    await waitFor(() => server.receivedOf('subscribe_quote').length === 2, 5_000, 'resubscription');
    expect(server.receivedOf('subscribe_quote').map((m) => m.ins_list)).toEqual(['DCE.m2601', 'DCE.m2601']);
    expect(opened).toEqual([1, 2]);
    server.setQuote('DCE.m2601', { last_price: 3050 });
    await waitFor(
      () => getPath(conn.data, 'quotes', 'DCE.m2601', 'last_price') === 3050,
      5_000,
      'quote after reconnect',
    );
  });

  it('does not queue one-off packets while disconnected, and closes cleanly', async () => {
    const server = await fake();
    const conn = connection(server.url);
    expect(conn.send({ aid: 'subscribe_quote', ins_list: 'x' })).toBe(false);
    conn.start();
    await waitFor(() => conn.isOpen(), 5_000, 'open');
    expect(conn.send({ aid: 'subscribe_quote', ins_list: 'SHFE.cu2601' })).toBe(true);
    await conn.close();
    await conn.close();
    expect(conn.state).toBe('closed');
    await waitFor(() => server.openConnections === 0, 5_000, 'server side closed');
    expect(conn.send({ aid: 'peek_message' })).toBe(false);
  });
});
