import { existsSync } from 'node:fs';

/**
 * How the scripts launch Debian's chromium through Playwright (never a downloaded browser): the
 * executable (CHROMIUM_PATH to change) and the flags for a headless run on a machine without a GPU,
 * sandbox or network beyond loopback. e2e/playwright.config.ts takes it from here too.
 *
 * Debian's chromium-headless-shell first (the same chromium build without the desktop browser, the
 * one Playwright itself runs headless): the whole e2e suite took 1.5× less CPU in it than in
 * /usr/bin/chromium's headless mode (docs/testing.md).
 */
export const CHROMIUM_LAUNCH = {
  executablePath:
    process.env.CHROMIUM_PATH ??
    (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
