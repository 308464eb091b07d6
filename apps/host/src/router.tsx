import { createBrowserRouter, Navigate } from '@pfp/router';
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
      // The 404 page's 返回首页 goes to /main (SPEC): the console's home, never a 404 of its own (issue 29).
      { path: 'main', element: <Navigate to="/trader" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
