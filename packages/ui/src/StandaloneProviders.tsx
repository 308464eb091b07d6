import { MantineProvider } from '@pfp/mantine';
import type { ReactNode } from 'react';
import { BrowserRouter } from '@pfp/router';
import { cssVariablesResolver, theme, themeFromSearch } from './theme';
import { AppToaster } from './toast';

/**
 * What the host gives a remote (router, Mantine, toaster), for running a remote on its own in
 * development. In the product the host provides these once for all remotes.
 */
export function StandaloneProviders({
  children,
  toaster = 'default',
}: {
  children: ReactNode;
  toaster?: 'default' | 'rich';
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={themeFromSearch(window.location.search)}
    >
      <AppToaster variant={toaster} />
      <BrowserRouter>{children}</BrowserRouter>
    </MantineProvider>
  );
}
