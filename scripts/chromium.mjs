/**
 * How the scripts launch Debian's chromium through Playwright (never a downloaded browser): the
 * executable (CHROMIUM_PATH to change) and the flags for a headless run on a machine without a GPU,
 * sandbox or network beyond loopback. e2e/playwright.config.ts uses the same.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
