import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';

/** Mantine in jsdom needs matchMedia and ResizeObserver. */
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

/** Renders inside Mantine with a toaster, like the host does. */
export function renderUi(ui: ReactElement): RenderResult {
  return render(
    <MantineProvider>
      <Toaster />
      {ui}
    </MantineProvider>,
  );
}
