import { createBrowserRouter } from 'react-router';
import { Shell } from '../layout/Shell';
import { NotFoundPage } from '@pfp/ui';
import { remoteRoute } from './remoteRoute';

/** SPEC §2 top-level switch on the first path segment; each remote owns everything below it. */
export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      { path: 'trader/*', lazy: remoteRoute('trader') },
      { path: 'pricer/*', lazy: remoteRoute('pricer') },
      { path: 'volatility-surface/*', lazy: remoteRoute('volatility') },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
