import { describe, expect, it } from 'vitest';
import { createRefreshTracker } from './refreshTracker';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const abortError = () => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });

describe('createRefreshTracker', () => {
  it('settles a refresh with the load it triggered', async () => {
    const tracker = createRefreshTracker();
    const load = deferred<string>();
    let settled = false;
    const refresh = tracker.next(() => void tracker.track(() => load.promise)).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    load.resolve('page');
    await refresh;
    expect(settled).toBe(true);
  });

  it('does not count a load that started before the refresh', async () => {
    const tracker = createRefreshTracker();
    const old = deferred<string>();
    const oldLoad = tracker.track(() => old.promise);
    const fresh = deferred<string>();
    let settled = false;
    const refresh = tracker.next(() => void tracker.track(() => fresh.promise)).then(() => (settled = true));
    old.resolve('old');
    await oldLoad;
    await Promise.resolve();
    expect(settled).toBe(false);
    fresh.resolve('fresh');
    await refresh;
    expect(settled).toBe(true);
  });

  it('follows the load that superseded an aborted one (an auto refresh at the same moment)', async () => {
    const tracker = createRefreshTracker();
    const triggered = deferred<string>();
    const refresh = tracker.next(() => void tracker.track(() => triggered.promise).catch(() => undefined));
    // The auto refresh starts a new load, which aborts the first.
    const superseding = deferred<string>();
    const second = tracker.track(() => superseding.promise);
    triggered.reject(abortError());
    superseding.resolve('page');
    await second;
    await expect(refresh).resolves.toBeUndefined();
  });

  it('rejects with the error of a failed load', async () => {
    const tracker = createRefreshTracker();
    const failing = deferred<string>();
    const refresh = tracker.next(() => void tracker.track(() => failing.promise).catch(() => undefined));
    failing.reject(new Error('HTTP error! status: 500, body: '));
    await expect(refresh).rejects.toThrow('HTTP error! status: 500');
  });
});
