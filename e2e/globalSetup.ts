import type { FullConfig } from '@playwright/test';
import { clusterDir, stopCluster } from './playwright.config';

/** An upper bound, not a budget: a loaded 2-core machine has taken over a minute to start a server. */
const TIMEOUT_MS = 180_000;

/**
 * The suites' servers start together (playwright.config.ts webServer, none waited for on its own): the tests
 * start once each suite's server (its project's baseURL) answers its health check.
 */
export default async function waitForServers(config: FullConfig) {
  const deadline = Date.now() + TIMEOUT_MS;
  await Promise.all(
    config.projects.map(async ({ use: { baseURL } }) => {
      const url = `${baseURL}/api/health`;
      while (Date.now() < deadline) {
        try {
          if ((await fetch(url)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`the e2e server at ${url} did not answer within ${TIMEOUT_MS / 1000} s (its output is above)`);
    }),
  );
  // The suites' PostgreSQL cluster (e2e/databases.mjs), if they run on one, once the run is over.
  return () => stopCluster(clusterDir);
}
