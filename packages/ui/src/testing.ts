/**
 * For component tests in jsdom (`import { installDomPolyfills } from '@pfp/ui/testing'`):
 * what Mantine needs from a browser that jsdom lacks.
 */
export function installDomPolyfills(): void {
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
