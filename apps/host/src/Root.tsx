import { MantineProvider } from '@pfp/mantine';
import { cssVariablesResolver, theme, themeFromSearch } from '@pfp/ui';
import { RouterProvider } from 'react-router';
import { router } from './router';

export function Root() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={themeFromSearch(window.location.search)}
    >
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
