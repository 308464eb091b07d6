import { MantineProvider } from '@pfp/mantine';
import { cssVariablesResolver, theme, themeFromSearch, themeParam } from '@pfp/ui';
import { useState, useSyncExternalStore } from 'react';
import { RouterProvider } from '@pfp/router';
import { router } from './router';

/**
 * SPEC §1: `?theme=dark` chooses the colour scheme. It holds for the page's life, and an address
 * that names a theme later switches to it: the trader's sign-in comes back to the bare callback
 * URL first and then goes on to its return URL, which carries the query it left with.
 */
function useAddressTheme() {
  const search = useSyncExternalStore(router.subscribe, () => router.state.location.search);
  const [scheme, setScheme] = useState(() => themeFromSearch(window.location.search));
  const asked = themeParam(search);
  if (asked !== null && asked !== scheme) setScheme(asked);
  return asked ?? scheme;
}

export function Root() {
  const scheme = useAddressTheme();
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme={scheme}>
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
