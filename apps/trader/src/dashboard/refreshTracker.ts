interface Waiter {
  /** Loads started before the refresh was asked for do not count. */
  after: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const isAbort = (err: unknown) => (err as { name?: unknown } | null)?.name === 'AbortError';

/**
 * Lets a manual refresh wait for the table's reload. The reload it triggers may be aborted by an
 * auto refresh or a page change that starts right after; the refresh then settles with the first
 * load that started after it and was not aborted.
 */
export function createRefreshTracker() {
  let started = 0;
  let waiters: Waiter[] = [];
  const settle = (seq: number, each: (w: Waiter) => void) => {
    const due = waiters.filter((w) => w.after < seq);
    waiters = waiters.filter((w) => w.after >= seq);
    due.forEach(each);
  };
  return {
    /** Wraps one load of the table. */
    async track<T>(load: () => Promise<T>): Promise<T> {
      const seq = ++started;
      try {
        const result = await load();
        settle(seq, (w) => w.resolve());
        return result;
      } catch (err) {
        if (!isAbort(err)) settle(seq, (w) => w.reject(err));
        throw err;
      }
    },
    /** Asks for a reload (`trigger`) and settles when one has finished. */
    next(trigger: () => void): Promise<void> {
      const done = new Promise<void>((resolve, reject) => waiters.push({ after: started, resolve, reject }));
      trigger();
      return done;
    },
  };
}
