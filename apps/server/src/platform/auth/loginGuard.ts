import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
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

/** The global ceiling's row: the account from every address. */
const EVERYWHERE = '';

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
 *   answers as a real one; `unlock` (the trader's unlock-pricer, a password reset) forgets an
 *   account's failures.
 * - per address: only failures count (an office behind one address signs in freely), checked
 *   after the body is parsed.
 *
 * The account counters live in the database (table login_failures, migration 015): every instance on
 * one PostgreSQL counts the same failures, a restart forgets nothing, and an unlock reaches all
 * instances. Each failure is one atomic upsert, so concurrent failures on two instances both count.
 * The per-address limit is a throughput limit and stays in memory, per instance.
 */
export class LoginGuard {
  private readonly addresses: FailureLimiter;
  readonly maxFailures: number;
  readonly globalFailures: number;
  readonly lockMs: number;
  private failuresSincePrune = 0;

  constructor(
    private readonly db: Kysely<DB>,
    opts: LoginGuardOptions = {},
  ) {
    this.maxFailures = opts.maxFailures ?? 5;
    this.globalFailures = opts.globalFailures ?? this.maxFailures * 4;
    this.lockMs = opts.lockMs ?? 15 * 60_000;
    this.addresses = new FailureLimiter(opts.addressFailures ?? 30, opts.addressWindowMs ?? 60_000);
  }

  /** Ms the account must still wait from this address (0 = may try); without an address, the global wait. */
  async accountWait(account: string, now = Date.now(), address?: string): Promise<number> {
    const rows = await this.db
      .selectFrom('login_failures')
      .select('until_ms')
      .where('account', '=', account)
      .where('address', 'in', address === undefined ? [EVERYWHERE] : [EVERYWHERE, address])
      .execute();
    return Math.max(0, ...rows.map((r) => Number(r.until_ms) - now));
  }

  addressLimited(address: string, now = Date.now()): boolean {
    return this.addresses.isLimited(address, now);
  }

  /** Whether this attempt may check a password at all. */
  async check(
    account: string,
    address: string,
    now = Date.now(),
  ): Promise<'ok' | 'account-locked' | 'address-limited'> {
    if ((await this.accountWait(account, now, address)) > 0) return 'account-locked';
    if (this.addressLimited(address, now)) return 'address-limited';
    return 'ok';
  }

  async failed(account: string, address: string, now = Date.now()) {
    this.addresses.fail(address, now);
    await this.bump(account, address, this.maxFailures, now);
    await this.bump(account, EVERYWHERE, this.globalFailures, now);
    // Rows quiet for longer than the longest lock are forgotten: the table stays the size of recent guessing.
    if (++this.failuresSincePrune >= 256) {
      this.failuresSincePrune = 0;
      await this.db
        .deleteFrom('login_failures')
        .where('last_ms', '<', now - this.lockMs)
        .where('until_ms', '<=', now)
        .execute();
    }
  }

  async succeeded(account: string, address?: string) {
    // The global count is kept: a success from one address does not clear guesses from others.
    if (address === undefined || address === EVERYWHERE) return;
    await this.db.deleteFrom('login_failures').where('account', '=', account).where('address', '=', address).execute();
  }

  /** The trader's unlock (unlock-pricer, a password reset): every failure of the account, from every address, forgotten. */
  async unlock(account: string) {
    await this.db.deleteFrom('login_failures').where('account', '=', account).execute();
  }

  /**
   * One more failure, atomically: a record quiet for the longest lock since its last failure (and its
   * wait over) starts again at 1; from `threshold` on it waits 30 s, doubling up to `lockMs`.
   */
  private async bump(account: string, address: string, threshold: number, now: number) {
    const lock = this.lockMs;
    const untilOf = (f: number) => (f >= threshold ? now + Math.min(lock, 30_000 * 2 ** (f - threshold)) : 0);
    const f = sql<number>`case when login_failures.until_ms <= ${now} and ${now} - login_failures.last_ms > ${lock}
      then 1 else login_failures.failures + 1 end`;
    await this.db
      .insertInto('login_failures')
      .values({ account, address, failures: 1, until_ms: untilOf(1), last_ms: now })
      .onConflict((oc) =>
        oc.columns(['account', 'address']).doUpdateSet({
          failures: f,
          last_ms: now,
          // 2^20 × 30 s is far past any lock: the exponent is capped so the arithmetic stays in range.
          until_ms: sql<number>`case when ${f} >= ${threshold}
            then ${now}::bigint + least(${lock}::bigint, (30000 * power(2, least(${f} - ${threshold}, 20)))::bigint)
            else 0 end`,
        }),
      )
      .execute();
  }
}

export const LOGIN_MESSAGES = {
  accountLocked: '登录失败次数过多，请稍后再试',
  addressLimited: '登录尝试过于频繁，请稍后再试',
} as const;
