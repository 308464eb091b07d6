// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRouter, Navigate, Route, RouterProvider, Routes, useLocation } from '@pfp/router';
import { installDomPolyfills, renderUi } from '../../test/dom';
import { jwt } from '../../test/jwt';
import { AuthGuard, AuthProvider } from './AuthContext';
import { TraderAuth, type AuthUser, type ManagerLike } from './traderAuth';

beforeAll(installDomPolyfills);
afterEach(cleanup);

const USER: AuthUser = {
  access_token: jwt({ sub: 's', name: '演示贸易商' }),
  id_token: jwt({ sub: 's' }),
  expires_in: 300,
  profile: { sub: 's' },
  state: { returnTo: '/trader/pricers' },
};

function makeAuth(opts: { stored?: AuthUser | null; callback?: AuthUser | Error; href: string; offline?: boolean }) {
  const url = new URL(opts.href);
  const manager: ManagerLike = {
    getUser: async () => opts.stored ?? null,
    signinCallback: async () => {
      if (opts.callback instanceof Error) throw opts.callback;
      return opts.callback;
    },
    signinRedirect: () => new Promise<void>(() => {}),
    signinSilent: async () => null,
    signoutRedirect: async () => {},
    removeUser: async () => {},
    clearStaleState: async () => {},
  };
  return new TraderAuth({
    fetchConfig: async () => {
      if (opts.offline) throw new Error('offline');
      return { authority: 'http://t/realms/pfp', client_id: 'shinny_web' };
    },
    createManager: () => manager,
    location: () => ({ href: url.href, pathname: url.pathname, search: url.search, hash: url.hash }),
    failures: { get: () => 0, set: () => {} },
    log: () => {},
  });
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.hash}</p>;
}

function renderGuard(auth: TraderAuth, initial: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/trader/*',
        element: (
          <AuthProvider auth={auth}>
            <AuthGuard>
              {/* Like the console: unknown paths (also the bare callback URL) redirect. */}
              <Routes>
                <Route path="dashboard" element={<Where />} />
                <Route path="pricers" element={<Where />} />
                <Route path="contracts" element={<Where />} />
                <Route path="*" element={<Navigate to="/trader/dashboard" replace />} />
              </Routes>
            </AuthGuard>
          </AuthProvider>
        ),
      },
    ],
    { initialEntries: [initial] },
  );
  renderUi(<RouterProvider router={router} />);
}

describe('AuthGuard', () => {
  it('shows the verifying overlay, then the redirecting overlay without a session', async () => {
    const auth = makeAuth({ href: 'http://t/trader/contracts' });
    renderGuard(auth, '/trader/contracts');
    expect(screen.getByText('正在验证身份...')).toBeTruthy();
    expect(await screen.findByText('正在跳转到登录页...')).toBeTruthy();
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('renders the console for a stored session, where it is', async () => {
    const auth = makeAuth({ stored: USER, href: 'http://t/trader/contracts' });
    renderGuard(auth, '/trader/contracts');
    expect((await screen.findByTestId('where')).textContent).toBe('/trader/contracts');
    auth.dispose();
  });

  it('after a sign-in returns to the remembered page and drops the code from the address', async () => {
    const href = 'http://t/trader#state=abc&code=xyz';
    const auth = makeAuth({ callback: USER, href });
    renderGuard(auth, '/trader#state=abc&code=xyz');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/trader/pricers'));
    auth.dispose();
  });

  it('offers a retry when sign-in cannot start', async () => {
    const auth = makeAuth({ href: 'http://t/trader', offline: true });
    renderGuard(auth, '/trader');
    expect(await screen.findByRole('button', { name: '重新登录' })).toBeTruthy();
    expect(screen.getByTestId('auth-error').textContent).toBe('offline');
  });
});
