/**
 * Opt-in hooks for the e2e suite. Inert in normal use: they exist only when the page defined
 * `window.__PFP_TEST_HOOKS__` before the app loaded (Playwright's addInitScript does that).
 */
export interface VolatilityTestHooks {
  /** The live echarts instance while the chart is shown. */
  chart?: unknown;
  /** The live echarts instance of the smile fit's chart while it is shown. */
  fitChart?: unknown;
  /** Feeds a `{patch}` through the same path as a WebSocket push. */
  push?: (data: unknown) => void;
  /** Called after each chart update has been drawn (setOption is synchronous). */
  drawn?: () => void;
}

export function volatilityTestHooks(): VolatilityTestHooks | undefined {
  const root = (globalThis as { __PFP_TEST_HOOKS__?: Record<string, unknown> }).__PFP_TEST_HOOKS__;
  if (typeof root !== 'object' || root === null) return undefined;
  root.volatility ??= {};
  return root.volatility as VolatilityTestHooks;
}

/** Publishes the live chart instance (or undefined when it goes away). */
export function exposeChart(instance: unknown): void {
  const hooks = volatilityTestHooks();
  if (hooks) hooks.chart = instance;
}

export function chartDrawn(): void {
  volatilityTestHooks()?.drawn?.();
}
