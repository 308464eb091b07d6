import { expect, test, type Locator, type Page } from '@playwright/test';

/*
 * SPEC §4/§9 notifications: toasts can be swiped away (past 45 px, or a flick faster than
 * 0.11 px/ms); Alt+T focuses the toaster, and toasts pause while it has the focus. The customer
 * login page makes a 3 s warning toast without calling the server (a missing username).
 *
 * The page's clock is Playwright's and stands still while a test acts: a toast's 3 s and a drag's
 * duration pass only when the test says so (clock.runFor), never because this machine is slow.
 */

const region = (page: Page) => page.getByRole('region', { name: '通知 Alt+T' });

/*
 * A toast's `data-toast` turns from 'shown' to 'leaving' in the render that dismisses it (it then
 * fades for a second before it is removed); `data-toast-id` follows one toast among alike ones.
 */
const expectDismissed = (toast: Locator) => expect(toast).toHaveAttribute('data-toast', 'leaving');
const expectShown = (toast: Locator) => expect(toast).toHaveAttribute('data-toast', 'shown');

/** Makes a warning toast; answers that toast. */
async function warn(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: '登录' }).click();
  const shown = page
    .locator('[data-toast="shown"]')
    .filter({ has: page.getByRole('status').filter({ hasText: '请填写所有必填字段' }) });
  await expect(shown).toHaveCount(1);
  const toast = page.locator(`[data-toast-id="${await shown.getAttribute('data-toast-id')}"]`);
  await expect(toast.getByRole('status')).toBeVisible();
  return toast;
}

/**
 * Presses on the toast, drags it `dx` px sideways and lets go after `ms` of the page's time. The
 * press waits, as a hand would, until the toast has stopped moving (it slides in) and is the thing
 * under the pointer: a box measured mid-slide may no longer be where the toast is.
 */
async function drag(page: Page, toast: Locator, dx: number, ms: number) {
  const status = toast.getByRole('status');
  await status.hover();
  const box = (await status.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 6 });
  await page.clock.runFor(ms);
  await page.mouse.up();
}

test.describe('toasts', () => {
  test.beforeEach(async ({ page }) => {
    await page.clock.install();
    // A company without the demo prefill: an empty form, so every 登录 warns.
    await page.goto('/pricer/999/login');
    await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
    // Stop the clock (a minute ahead, past anything the loaded page had scheduled).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
  });

  test('Alt+T focuses the toaster; a focused toaster keeps its toasts until the focus leaves', async ({ page }) => {
    const toast = await warn(page);
    await page.keyboard.press('Alt+T');
    await expect(region(page)).toBeFocused();
    // Far longer than the warning's 3 s: paused while focused.
    await page.clock.runFor(10_000);
    await expectShown(toast);
    await page.keyboard.press('Escape');
    await expect(region(page)).not.toBeFocused();
    await page.clock.runFor(3_000);
    await expectDismissed(toast);
  });

  test('a swipe past 45 px dismisses a toast, either way', async ({ page }) => {
    const right = await warn(page);
    // Slow (60 px in 2 s = 0.03 px/ms) and well inside the toast's 3 s: the distance alone dismisses.
    await drag(page, right, 60, 2_000);
    await expectDismissed(right);
    const left = await warn(page);
    await drag(page, left, -60, 2_000);
    await expectDismissed(left);
  });

  test('a short slow drag springs back; a short flick dismisses', async ({ page }) => {
    const toast = await warn(page);
    // 20 px in 600 ms = 0.033 px/ms, under 0.11.
    await drag(page, toast, 20, 600);
    // The release has been handled (the same render would have dismissed it) …
    await expect(page.locator('[data-swipe="dragging"]')).toHaveCount(0);
    // … and the toast is still there.
    await expectShown(toast);
    // 20 px in 100 ms = 0.2 px/ms, over 0.11 (all of it inside the toast's 3 s).
    await drag(page, toast, 20, 100);
    await expectDismissed(toast);
  });
});
