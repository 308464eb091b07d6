import { MantineProvider } from '@pfp/mantine';
import { theme, themeFromSearch } from '@pfp/ui';
import { RouterProvider } from 'react-router';
import { router } from './routing/router';

export function Root() {
  return (
    <MantineProvider theme={theme} forceColorScheme={themeFromSearch(window.location.search)}>
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
