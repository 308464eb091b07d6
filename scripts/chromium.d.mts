/** scripts/chromium.mjs, for the TypeScript that imports it (e2e/playwright.config.ts). */
export declare const CHROMIUM_LAUNCH: { executablePath: string; args: string[] };
