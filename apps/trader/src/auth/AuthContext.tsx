import { Button, Center, Stack, Text, Title } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { FullScreenMessage } from '@pfp/ui';
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation, useNavigate } from '@pfp/router';
import type { AuthSnapshot, TraderAuth } from './traderAuth';
import { TONE } from '../shared/tones';

const AuthContext = createContext<TraderAuth | null>(null);

export function AuthProvider({ auth, children }: { auth: TraderAuth; children: ReactNode }) {
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useTraderAuth(): TraderAuth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useTraderAuth must be used inside <AuthProvider>');
  return auth;
}

export function useAuthSnapshot(): AuthSnapshot {
  const auth = useTraderAuth();
  return useSyncExternalStore(auth.subscribe, auth.getSnapshot);
}

/** pathname + search in one spelling (the router and window.location may encode differently). */
function samePlace(a: string, b: string): boolean {
  const norm = (value: string) => {
    const url = new URL(value, 'http://x');
    try {
      return decodeURI(url.pathname + url.search);
    } catch {
      return url.pathname + url.search;
    }
  };
  return norm(a) === norm(b);
}

/**
 * SPEC §2 "Authentication guard": an overlay while auth loads, another while the browser goes to
 * the provider's login, the console once signed in. After a sign-in it returns to where the trader was.
 */
export function AuthGuard({ children }: { children: ReactNode }) {
  const auth = useTraderAuth();
  const snapshot = useAuthSnapshot();
  const navigate = useNavigate();
  const location = useLocation();
  // The console renders only once the router shows the return target: the router applies
  // navigations in a transition, and the console's own redirects must not see the callback URL.
  const [phase, setPhase] = useState<{ ready: boolean; target: string | null }>({ ready: false, target: null });
  if (phase.target !== null && samePlace(location.pathname + location.search, phase.target)) {
    setPhase({ ready: true, target: null });
  }

  useEffect(() => {
    let live = true;
    void auth.init().then(() => {
      if (!live) return;
      const returnTo = auth.takeReturnTo();
      setPhase({ ready: true, target: returnTo });
      // Replacing the entry also drops the code and state from the address bar.
      if (returnTo) void navigate(returnTo, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [auth, navigate]);

  switch (snapshot.status) {
    case 'loading':
      return <FullScreenMessage text={zh.shell.verifyingIdentity} />;
    case 'unauthenticated':
      return <FullScreenMessage text={zh.shell.redirectingToLogin} />;
    case 'failed':
      return (
        <Center h="100vh" role="alert">
          <Stack align="center" gap="sm" maw={420} px="md">
            <Title order={2} size="h4">
              {zh.trader.auth.signInFailed}
            </Title>
            <Text c="dimmed" ta="center">
              {zh.trader.auth.signInFailedHint}
            </Text>
            {snapshot.error ? (
              <Text size="sm" c="dimmed" ta="center" data-testid="auth-error">
                {snapshot.error}
              </Text>
            ) : null}
            <Button color={TONE.primary} onClick={() => void auth.retry()}>
              {zh.trader.auth.retry}
            </Button>
          </Stack>
        </Center>
      );
    case 'authenticated':
      return phase.ready && phase.target === null ? (
        <>{children}</>
      ) : (
        <FullScreenMessage text={zh.shell.verifyingIdentity} />
      );
  }
}
