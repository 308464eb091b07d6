import type { Logger } from './logger';

/** A job the server runs on its own: once now (awaitable), then every so often; stopped by the server's close. */
export interface Periodic {
  /** One run now, or the run already under way: never two at once. */
  runOnce(): Promise<void>;
  /** No more runs; resolves once the run under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `job` every `everyMs`, one run at a time (a tick while a run is under way joins it), and logs a
 * failed run as `<name>: run failed` instead of throwing: the next tick tries again.
 */
export function every(name: string, everyMs: number, job: () => Promise<void>, logger: Logger): Periodic {
  let running: Promise<void> | undefined;
  const runOnce = () =>
    (running ??= job()
      .catch((err: unknown) => logger.error({ err }, `${name}: run failed`))
      .finally(() => (running = undefined)));
  const timer = setInterval(() => void runOnce(), everyMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
