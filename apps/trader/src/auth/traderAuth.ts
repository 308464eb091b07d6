import type { OidcConfig } from '../shared/api/config';
import { decodeJwtPayload, randomNonce, traderFromTokens, type TraderIdentity } from './tokens';

/** SPEC §4 "Trader auth" / §9 "Auth": refresh when less than this many seconds of validity are left. */
export const MIN_VALIDITY_SECONDS = 30;
/** How often the timer checks the token's remaining validity. */
export const REFRESH_CHECK_MS = 5_000;
/** Consecutive rejected sign-in responses before we stop redirecting (a broken provider must not loop forever). */
export const MAX_SIGNIN_FAILURES = 3;
export const DEFAULT_RETURN_TO = '/trader/dashboard';
/** §8: the message of a failed refresh. */
export const REFRESH_FAILED = 'Failed to refresh token';
export const NOT_SIGNED_IN = 'Not signed in';

/** What we use of oidc-client-ts's User. */
export interface AuthUser {
  access_token: string;
  id_token?: string | undefined;
  refresh_token?: string | undefined;
  /** Seconds left; undefined when the provider sent no expiry. */
  expires_in?: number | undefined;
  profile: object;
  state?: unknown;
}

/** What we use of oidc-client-ts's UserManager (a seam for the unit tests). */
export interface ManagerLike {
  getUser(): Promise<AuthUser | null>;
  signinCallback(url: string): Promise<AuthUser | undefined>;
  signinRedirect(args: { state: { returnTo: string }; nonce: string }): Promise<void>;
  signinSilent(): Promise<AuthUser | null>;
  signoutRedirect(args: { id_token_hint?: string | undefined }): Promise<void>;
  removeUser(): Promise<void>;
  clearStaleState(): Promise<void>;
}

export interface TraderAuthDeps {
  fetchConfig(): Promise<OidcConfig>;
  createManager(config: OidcConfig): ManagerLike;
  location(): { href: string; pathname: string; search: string; hash: string };
  /** Consecutive rejected sign-in responses, kept across the redirects of one tab. */
  failures: { get(): number; set(count: number): void };
  log?: (message: string, error: unknown) => void;
}

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'failed';

export interface AuthSnapshot {
  status: AuthStatus;
  trader: TraderIdentity | null;
  /** Why sign-in stopped (status 'failed'). */
  error: string | null;
}

export interface InitResult {
  /** A sign-in response was completed in this init: {@link TraderAuth.takeReturnTo} says where to go. */
  completedSignin?: boolean;
}

/** The fragment of a sign-in response (response_mode fragment): a state plus a code or an error. */
export function isSigninResponse(hash: string): boolean {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return params.has('state') && (params.has('code') || params.has('error'));
}

/** Only a path of the trader console may be a return target (the stored state is client data). */
export function safeReturnTo(state: unknown): string {
  const value = typeof state === 'object' && state !== null ? (state as { returnTo?: unknown }).returnTo : undefined;
  if (typeof value !== 'string' || !/^\/trader(?:[/?#]|$)/.test(value)) return DEFAULT_RETURN_TO;
  // The console's root goes to the dashboard with its query (?theme=dark survives the sign-in).
  const root = /^\/trader\/?(?=[?#]|$)/.exec(value);
  return root ? DEFAULT_RETURN_TO + value.slice(root[0].length).replace(/#.*$/, '') : value;
}

/** Access and id token must be well-formed JWTs (§5), or the user is rejected. */
function checked(user: AuthUser | null | undefined): AuthUser {
  if (!user || !user.access_token) throw new Error('No user in sign-in response');
  decodeJwtPayload(user.access_token);
  if (user.id_token) decodeJwtPayload(user.id_token);
  return user;
}

function secondsLeft(user: AuthUser): number {
  return user.expires_in ?? Number.POSITIVE_INFINITY;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The trader's OpenID Connect session (SPEC §4 "Trader auth"): loading, then authenticated or not.
 * Init runs once (a second call while one is running gets the same promise) and reuses the
 * UserManager. Tokens are refreshed with the refresh token when fewer than 30 s are left: before
 * each API call and on a timer. Any failure ends in a fresh login, never in a blank page.
 */
export class TraderAuth {
  private snapshot: AuthSnapshot = { status: 'loading', trader: null, error: null };
  private readonly listeners = new Set<() => void>();
  private manager: ManagerLike | null = null;
  private initPromise: Promise<InitResult> | null = null;
  private refreshing: Promise<AuthUser> | null = null;
  private user: AuthUser | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private signingOut = false;
  private returnTo: string | null = null;

  constructor(private readonly deps: TraderAuthDeps) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): AuthSnapshot => this.snapshot;

  /** Runs once; a call while it runs (or after) returns the same promise. */
  init(): Promise<InitResult> {
    this.initPromise ??= this.run();
    return this.initPromise;
  }

  /**
   * Where to go after the sign-in this init completed (the page the trader was on), once: a later
   * mount of the console must not jump there again.
   */
  takeReturnTo(): string | null {
    const to = this.returnTo;
    this.returnTo = null;
    return to;
  }

  /** Still signed in with a token that has not expired: a 401 then is the server's business error. */
  isAuthenticated(): boolean {
    return this.snapshot.status === 'authenticated' && this.user !== null && secondsLeft(this.user) > 0;
  }

  /** The bearer token for an API call, refreshed first when it has fewer than 30 s left. */
  async getAccessToken(): Promise<string> {
    if (this.snapshot.status === 'loading') await this.init();
    const user = await this.ensureFresh();
    return user.access_token;
  }

  /**
   * The api-client's auth-error handler: nothing while the session is still authenticated (the 401
   * is a business error), otherwise the instance is reset and the trader logs in again.
   */
  handleAuthError(): void {
    if (this.signingOut || this.isAuthenticated()) return;
    void this.restart();
  }

  /** Clears the local session, then the provider's logout redirects back to `postLogoutRedirectUri`. */
  async signOut(): Promise<void> {
    this.signingOut = true;
    const idToken = this.user?.id_token;
    this.stopTimer();
    this.user = null;
    this.set({ status: 'unauthenticated', trader: null, error: null });
    try {
      const manager = await this.ensureManager();
      await manager.removeUser();
      await manager.signoutRedirect({ id_token_hint: idToken });
    } catch (err) {
      this.log('sign-out failed', err);
      this.signingOut = false;
      this.resetInstance();
      this.set({ status: 'failed', trader: null, error: messageOf(err) });
    }
  }

  /** Starts a fresh sign-in after a stop (the failure screen's retry); a refused response in the URL is skipped. */
  retry(): Promise<InitResult> {
    this.deps.failures.set(0);
    this.resetInstance();
    this.initPromise = this.run(true);
    return this.initPromise;
  }

  /** Stops the refresh timer (tests, hot reload). */
  dispose(): void {
    this.stopTimer();
  }

  private async run(ignoreSigninResponse = false): Promise<InitResult> {
    this.set({ status: 'loading', trader: null, error: null });
    let manager: ManagerLike;
    const location = this.deps.location();
    try {
      manager = await this.ensureManager();
    } catch (err) {
      // §8: init failure resets the instance; the trader sees why and can retry.
      this.log('auth init failed', err);
      this.resetInstance();
      this.set({ status: 'failed', trader: null, error: messageOf(err) });
      return {};
    }
    if (isSigninResponse(location.hash) && !ignoreSigninResponse) return this.completeSignin(manager, location.href);

    let stored: AuthUser | null = null;
    try {
      stored = await manager.getUser();
      if (stored) {
        checked(stored);
        if (secondsLeft(stored) > MIN_VALIDITY_SECONDS) {
          this.accept(stored);
          return {};
        }
        if (stored.refresh_token) {
          this.accept(checked(await manager.signinSilent()));
          return {};
        }
      }
    } catch (err) {
      // A malformed stored token or a refused refresh: start over with a fresh login.
      this.log('stored session rejected', err);
    }
    if (stored) await manager.removeUser().catch(() => undefined);
    await this.login(manager, location.pathname + location.search);
    return {};
  }

  private async completeSignin(manager: ManagerLike, url: string): Promise<InitResult> {
    try {
      const user = checked(await manager.signinCallback(url));
      this.deps.failures.set(0);
      this.returnTo = safeReturnTo(user.state);
      this.accept(user);
      return { completedSignin: true };
    } catch (err) {
      // State or nonce mismatch, a provider error response, a malformed token: refuse it and log in again.
      this.log('sign-in response rejected', err);
      const failures = this.deps.failures.get() + 1;
      this.deps.failures.set(failures);
      await manager.removeUser().catch(() => undefined);
      await manager.clearStaleState().catch(() => undefined);
      if (failures >= MAX_SIGNIN_FAILURES) {
        this.set({ status: 'failed', trader: null, error: messageOf(err) });
        return {};
      }
      await this.login(manager, DEFAULT_RETURN_TO);
      return {};
    }
  }

  private async login(manager: ManagerLike, returnTo: string): Promise<void> {
    this.stopTimer();
    this.user = null;
    this.set({ status: 'unauthenticated', trader: null, error: null });
    try {
      await manager.signinRedirect({ state: { returnTo: safeReturnTo({ returnTo }) }, nonce: randomNonce() });
    } catch (err) {
      this.log('login start failed', err);
      this.resetInstance();
      this.set({ status: 'failed', trader: null, error: messageOf(err) });
    }
  }

  private async restart(): Promise<void> {
    const old = this.manager;
    this.resetInstance();
    await old?.removeUser().catch(() => undefined);
    await this.init();
  }

  private async ensureFresh(): Promise<AuthUser> {
    const user = this.user;
    if (!user || this.snapshot.status !== 'authenticated') throw new Error(NOT_SIGNED_IN);
    if (secondsLeft(user) >= MIN_VALIDITY_SECONDS) return user;
    return this.refresh();
  }

  /** One refresh at a time: the provider rotates refresh tokens, so a second use would be refused. */
  private refresh(): Promise<AuthUser> {
    this.refreshing ??= (async () => {
      const manager = await this.ensureManager();
      try {
        return this.accept(checked(await manager.signinSilent()));
      } catch (err) {
        // §8: a failed refresh signs out and logs in again.
        this.log(REFRESH_FAILED, err);
        await manager.removeUser().catch(() => undefined);
        const { pathname, search } = this.deps.location();
        void this.login(manager, pathname + search);
        throw new Error(REFRESH_FAILED);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private accept(user: AuthUser): AuthUser {
    this.user = user;
    const trader = traderFromTokens(user.profile as Record<string, unknown>, user.access_token);
    const previous = this.snapshot.trader;
    const same =
      previous !== null &&
      this.snapshot.status === 'authenticated' &&
      (Object.keys(trader) as (keyof TraderIdentity)[]).every((k) => trader[k] === previous[k]);
    if (!same) this.set({ status: 'authenticated', trader, error: null });
    this.startTimer();
    return user;
  }

  private async ensureManager(): Promise<ManagerLike> {
    if (this.manager) return this.manager;
    const config = await this.deps.fetchConfig();
    this.manager ??= this.deps.createManager(config);
    return this.manager;
  }

  private resetInstance(): void {
    this.stopTimer();
    this.manager = null;
    this.initPromise = null;
    this.refreshing = null;
    this.user = null;
  }

  private startTimer(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      if (this.user && secondsLeft(this.user) < MIN_VALIDITY_SECONDS) void this.refresh().catch(() => undefined);
    }, REFRESH_CHECK_MS);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private set(next: AuthSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  private log(message: string, err: unknown): void {
    (this.deps.log ?? ((m, e) => console.warn(`[trader auth] ${m}`, e)))(message, err);
  }
}
