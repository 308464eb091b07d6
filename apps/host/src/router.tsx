import { createBrowserRouter } from 'react-router';
import { Shell } from './layout/Shell';
import { zh } from '@pfp/i18n';
import { FullScreenMessage, NotFoundPage } from '@pfp/ui';
import { remoteRoute } from './routing/remoteRoute';

/** SPEC §2 top-level switch on the first path segment; each remote owns everything below it. */
export const router = createBrowserRouter([
  {
    element: <Shell />,
    // Shown while a remote's entry loads on the first visit.
    hydrateFallbackElement: <FullScreenMessage text={zh.shell.loadingApp} />,
    children: [
      { path: 'trader/*', lazy: remoteRoute('trader') },
      { path: 'pricer/*', lazy: remoteRoute('pricer') },
      { path: 'volatility-surface/*', lazy: remoteRoute('volatility') },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
