import { FailureLimiter } from './rateLimit';

export interface LoginGuardOptions {
  /** Failures of one account before it must wait. Default 5. */
  maxFailures?: number;
  /** Failures of one account from all addresses together before it must wait everywhere. Default 4 × maxFailures. */
  globalFailures?: number;
  /** The longest wait of a locked account, ms. Default 15 min. */
  lockMs?: number;
  /** Failed logins allowed per address within `addressWindowMs` (successes are not counted). */
  addressFailures?: number;
  addressWindowMs?: number;
}

/**
 * Login protection shared by the customer login and the trader login page (docs/security.md):
 *
 * - per account **and address** (issue 30): from the `maxFailures`-th failure of that account from
 *   that address on, that pair waits 30 s, doubling with every further failure up to `lockMs`; while
 *   it waits, even the right password is refused — from that address. Someone guessing from
 *   elsewhere cannot lock the owner out by naming the account.
 * - per account from any address, a slower ceiling: from the `globalFailures`-th failure (default 4 ×
 *   `maxFailures`) the account waits the same way everywhere, so guesses spread over many addresses
 *   are still bounded.
 * - accounts are keyed by the name as typed (normalised), so an unknown user gets exactly the same
 *   answers as a real one; `unlock` (the trader's unlock-pricer) forgets an account's failures.
 * - per address: only failures count (an office behind one address signs in freely), checked
 *   after the body is parsed.
 *
 * In memory, per process: a restart forgets, and each instance counts on its own.
 */
export class LoginGuard {
  private readonly pairs = new Map<string, Failures>();
  private readonly accounts = new Map<string, Failures>();
  private readonly addresses: FailureLimiter;
  readonly maxFailures: number;
  readonly globalFailures: number;
  readonly lockMs: number;

  constructor(
    opts: LoginGuardOptions = {},
    private readonly maxAccounts = 100_000,
  ) {
    this.maxFailures = opts.maxFailures ?? 5;
    this.globalFailures = opts.globalFailures ?? this.maxFailures * 4;
    this.lockMs = opts.lockMs ?? 15 * 60_000;
    this.addresses = new FailureLimiter(opts.addressFailures ?? 30, opts.addressWindowMs ?? 60_000);
  }

  /** Ms the account must still wait from this address (0 = may try); without an address, the global wait. */
  accountWait(account: string, now = Date.now(), address?: string): number {
    const global = this.wait(this.accounts, account, now);
    return address === undefined ? global : Math.max(global, this.wait(this.pairs, pairKey(account, address), now));
  }

  addressLimited(address: string, now = Date.now()): boolean {
    return this.addresses.isLimited(address, now);
  }

  /** Whether this attempt may check a password at all. */
  check(account: string, address: string, now = Date.now()): 'ok' | 'account-locked' | 'address-limited' {
    if (this.accountWait(account, now, address) > 0) return 'account-locked';
    if (this.addressLimited(address, now)) return 'address-limited';
    return 'ok';
  }

  failed(account: string, address: string, now = Date.now()) {
    this.addresses.fail(address, now);
    this.bump(this.pairs, pairKey(account, address), this.maxFailures, now);
    this.bump(this.accounts, account, this.globalFailures, now);
  }

  succeeded(account: string, address?: string) {
    if (address !== undefined) this.pairs.delete(pairKey(account, address));
    // The global count is kept: a success from one address does not clear guesses from others.
  }

  /** The trader's unlock (unlock-pricer): every failure of the account, from every address, forgotten. */
  unlock(account: string) {
    this.accounts.delete(account);
    const prefix = pairKey(account, '');
    for (const key of [...this.pairs.keys()]) if (key.startsWith(prefix)) this.pairs.delete(key);
  }

  private wait(map: Map<string, Failures>, key: string, now: number): number {
    const a = map.get(key);
    if (!a) return 0;
    // Quiet for the longest lock since its last failure (and its wait over): forgotten.
    if (a.until <= now && now - a.last > this.lockMs) map.delete(key);
    return Math.max(0, a.until - now);
  }

  private bump(map: Map<string, Failures>, key: string, threshold: number, now: number) {
    this.wait(map, key, now); // forgets a stale record
    const a = map.get(key) ?? { failures: 0, until: 0, last: 0 };
    a.failures++;
    a.last = now;
    if (a.failures >= threshold) a.until = now + Math.min(this.lockMs, 30_000 * 2 ** (a.failures - threshold));
    map.delete(key);
    map.set(key, a);
    if (map.size > this.maxAccounts) {
      // Map order is insertion order and bump() re-inserts: the first keys are the stalest.
      for (const k of map.keys()) {
        if (map.size <= this.maxAccounts) break;
        map.delete(k);
      }
    }
  }
}

type Failures = { failures: number; until: number; last: number };
const pairKey = (account: string, address: string) => `${account}\u0000${address}`;

export const LOGIN_MESSAGES = {
  accountLocked: '登录失败次数过多，请稍后再试',
  addressLimited: '登录尝试过于频繁，请稍后再试',
} as const;
