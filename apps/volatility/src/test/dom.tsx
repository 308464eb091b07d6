import { MantineProvider } from '@mantine/core';
import { theme } from '@pfp/ui';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

/** What Mantine needs from a browser that jsdom lacks. */
export function installDomPolyfills() {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

export const renderUi = (ui: ReactNode) => render(<MantineProvider theme={theme}>{ui}</MantineProvider>);
