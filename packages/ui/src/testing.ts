/**
 * For component tests in jsdom (`import { installDomPolyfills } from '@pfp/ui/testing'`):
 * what Mantine needs from a browser that jsdom lacks.
 */
import { configure } from '@testing-library/react';

export function installDomPolyfills(): void {
  // findBy*/waitFor give up after 1 s by default; on a loaded 2-core CI machine a Mantine render
  // can take longer, and a wait that merely outlasts the machine's load is not a test of anything.
  configure({ asyncUtilTimeout: 15_000 });
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(globalThis, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
}
