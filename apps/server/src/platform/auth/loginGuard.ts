import { FailureLimiter } from './rateLimit';

export interface LoginGuardOptions {
  /** Failures of one account before it must wait. Default 5. */
  maxFailures?: number;
  /** The longest wait of a locked account, ms. Default 15 min. */
  lockMs?: number;
  /** Failed logins allowed per address within `addressWindowMs` (successes are not counted). */
  addressFailures?: number;
  addressWindowMs?: number;
}

/**
 * Login protection shared by the customer login and the trader login page (docs/security.md):
 *
 * - per account, whatever the address: from the `maxFailures`-th failure on, the account waits
 *   30 s, doubling with every further failure up to `lockMs`; while it waits, even the right
 *   password is refused. Accounts are keyed by the name as typed (normalised), so an unknown
 *   user gets exactly the same answers as a real one.
 * - per address: only failures count (an office behind one address signs in freely), checked
 *   after the body is parsed.
 *
 * In memory, per process: a restart forgets, and each instance counts on its own.
 */
export class LoginGuard {
  private readonly accounts = new Map<string, { failures: number; until: number; last: number }>();
  private readonly addresses: FailureLimiter;
  readonly maxFailures: number;
  readonly lockMs: number;

  constructor(
    opts: LoginGuardOptions = {},
    private readonly maxAccounts = 100_000,
  ) {
    this.maxFailures = opts.maxFailures ?? 5;
    this.lockMs = opts.lockMs ?? 15 * 60_000;
    this.addresses = new FailureLimiter(opts.addressFailures ?? 30, opts.addressWindowMs ?? 60_000);
  }

  /** Ms the account must still wait (0 = may try). */
  accountWait(account: string, now = Date.now()): number {
    const a = this.accounts.get(account);
    if (!a) return 0;
    // Quiet for the longest lock since its last failure (and its wait over): forgotten.
    if (a.until <= now && now - a.last > this.lockMs) this.accounts.delete(account);
    return Math.max(0, a.until - now);
  }

  addressLimited(address: string, now = Date.now()): boolean {
    return this.addresses.isLimited(address, now);
  }

  /** Whether this attempt may check a password at all. */
  check(account: string, address: string, now = Date.now()): 'ok' | 'account-locked' | 'address-limited' {
    if (this.accountWait(account, now) > 0) return 'account-locked';
    if (this.addressLimited(address, now)) return 'address-limited';
    return 'ok';
  }

  failed(account: string, address: string, now = Date.now()) {
    this.addresses.fail(address, now);
    this.accountWait(account, now); // forgets a stale record
    const a = this.accounts.get(account) ?? { failures: 0, until: 0, last: 0 };
    a.failures++;
    a.last = now;
    if (a.failures >= this.maxFailures) {
      const wait = Math.min(this.lockMs, 30_000 * 2 ** (a.failures - this.maxFailures));
      a.until = now + wait;
    }
    this.accounts.delete(account);
    this.accounts.set(account, a);
    if (this.accounts.size > this.maxAccounts) {
      // Map order is insertion order and failed() re-inserts: the first keys are the stalest.
      for (const key of this.accounts.keys()) {
        if (this.accounts.size <= this.maxAccounts) break;
        this.accounts.delete(key);
      }
    }
  }

  succeeded(account: string) {
    this.accounts.delete(account);
  }
}

export const LOGIN_MESSAGES = {
  accountLocked: '登录失败次数过多，请稍后再试',
  addressLimited: '登录尝试过于频繁，请稍后再试',
} as const;
