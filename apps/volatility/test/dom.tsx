import { MantineProvider } from '@pfp/mantine';
import { theme } from '@pfp/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

export { installDomPolyfills } from '@pfp/ui/testing';

/** Renders like the app: the shared theme and a query client of its own (no retries). */
export const renderUi = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider theme={theme}>{ui}</MantineProvider>
    </QueryClientProvider>,
  );
