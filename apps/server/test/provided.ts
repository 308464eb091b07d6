import { inject, type ProvidedContext } from 'vitest';

/** What the test project's global setup provided; nothing outside a vitest run (the benches start harnesses and servers too). */
export function provided<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}
