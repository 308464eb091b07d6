import { test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';

/**
 * Writes `entries` into the tab's local or session storage from an init script, before the app's first script on the
 * tab's next load of the suite's server: a session where the app's own sign-in would leave it, with no load of a page
 * only to write it (~0.5 CPU-s each, docs/testing.md). Once per call: later loads (a reload after a sign-out) find what
 * the app left there, and a later call's entries are not overwritten by this one.
 */
export async function storeOnNextLoad(page: Page, area: 'local' | 'session', entries: Record<string, string>) {
  const origin = new URL(test.info().project.use.baseURL ?? '').origin;
  await page.addInitScript(
    ([once, appOrigin, where, items]) => {
      if (location.origin !== appOrigin || sessionStorage.getItem(once)) return;
      sessionStorage.setItem(once, '1');
      const storage = where === 'local' ? localStorage : sessionStorage;
      for (const [key, value] of Object.entries(items)) storage.setItem(key, value);
    },
    [`pfp.e2e.stored.${randomUUID()}`, origin, area, entries] as const,
  );
}
