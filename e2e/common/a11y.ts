import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * The page's axe violations as it is now (each suite's expectAccessible reads the serious and critical ones). Axe is
 * told to report violations only: its passes and inapplicable rules, which no test reads, were ~0.2 CPU-s a scan to
 * build and carry back (docs/testing.md).
 */
export async function axeViolations(page: Page) {
  // A tooltip the mouse has left fades out over 100 ms (Mantine's transition), its colours mid-fade no one's reading:
  // axe measured one at 1280 px on a loaded machine. Scanned once it is gone.
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  // A toast on its way out fades for a second (packages/ui SwipeToDismiss): its colours mid-fade are no one's reading.
  const result = await new AxeBuilder({ page })
    .exclude('[data-toast="leaving"]')
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations;
}
