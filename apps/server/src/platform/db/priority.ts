import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Background database work (the order routers' fills and claims): on PGlite's one connection it
 * waits while requests wait (pgliteDialect.ts), so a burst of fills cannot queue the customers'
 * polls behind it (docs/performance.md). The mark follows the work through its awaits.
 */
const background = new AsyncLocalStorage<true>();

export const asBackground = <T>(fn: () => Promise<T>): Promise<T> => background.run(true, fn);

export const isBackground = (): boolean => background.getStore() === true;
