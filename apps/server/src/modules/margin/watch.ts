import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { every } from '../../platform/every';
import { consoleLogger, type Logger } from '../../platform/logger';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { notifyMarginCall } from '../notifications/notify';
import { accountRows, markToMarket } from './accounts';
import type { AccountFigures } from './arithmetic';
import type { LastPriceOf } from './market';

/*
 * The one writer of margin calls (docs/margin.md "Margin calls"): reads mark accounts to the market and write
 * nothing; this watcher records a call's beginning and end (pricer_accounts.in_call), audits it by 系统 and
 * tells the customer, the desk and the webhook (notify.ts). It is woken by the price ticks of the instruments
 * that move someone's margin, by a write of money (入金/出金/调整, 授信, 结算: wakeMarginWatch) and, as a
 * fallback, by its timer.
 */

/**
 * Marks the accounts of the given companies (default: every company that can be in a call: with an account
 * row or fixed, not yet settled lots) to the market: a call that began or ended since the last mark is
 * recorded and audited. Returns the customers in a call.
 */
export async function markAccounts(
  db: Kysely<DB>,
  lastPrice: LastPriceOf,
  tenants?: Iterable<number>,
): Promise<number[]> {
  const ids = tenants
    ? [...tenants]
    : (
        await sql<{ tenant_id: number }>`
          select tenant_id from pricer_accounts
          union
          select tenant_id from contracts where executed_quantity > settled_quantity`.execute(db)
      ).rows.map((r) => Number(r.tenant_id));
  const inCall: number[] = [];
  for (const tenantId of ids) {
    const rows = await accountRows(db, { tenantId });
    const marked = rows.map((a) => ({ ...markToMarket(a, lastPrice), in_call: a.in_call }));
    const changed = marked.filter((a) => a.margin_call !== a.in_call);
    if (changed.length) await recordCalls(db, tenantId, changed);
    for (const a of marked) if (a.margin_call) inCall.push(a.pricer_id);
  }
  return inCall;
}

/** The companies whose customers' margin moves with these instruments' prices (fixed lots, open market orders). */
async function tenantsPricedBy(db: Kysely<DB>, symbols: readonly string[]): Promise<number[]> {
  if (!symbols.length) return [];
  // One array parameter, not one per symbol: a tick names every listed instrument (~340), twice a second.
  const list = sql`${[...symbols]}::text[]`;
  const { rows } = await sql<{ tenant_id: number }>`
    select tenant_id from contracts
     where margin_rate > 0 and executed_quantity > settled_quantity and instrument_id = any(${list})
    union
    select o.tenant_id from orders o join contracts c on c.id = o.contract_id
     where o.status in ('PENDING', 'ALIVE') and o.limit_price <= 0 and c.margin_rate > 0
       and o.instrument_id = any(${list})`.execute(db);
  return rows.map((r) => Number(r.tenant_id));
}

/**
 * A margin call begins or ends: recorded once (the conditional upsert: of concurrent watchers — one per
 * instance — only one sees the change) and audited by the system with the figures that decided it.
 */
async function recordCalls(db: Kysely<DB>, tenantId: number, changed: (AccountFigures & { pricer_id: number })[]) {
  await db.transaction().execute(async (tx) => {
    for (const c of changed) {
      const { rows } = await sql<{ pricer_id: number }>`
        insert into pricer_accounts (pricer_id, tenant_id, in_call) values (${c.pricer_id}::integer, ${tenantId}::integer, ${c.margin_call})
        on conflict (pricer_id) do update set in_call = excluded.in_call, updated_at = now()
          where pricer_accounts.in_call is distinct from excluded.in_call
        returning pricer_id`.execute(tx);
      if (!rows.length) continue;
      await audit(tx, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: c.margin_call ? 'margin-call' : 'margin-call-end',
        payload: {
          pricer_id: c.pricer_id,
          call_amount: c.call_amount,
          available: c.available,
          balance: c.balance,
          credit_line: c.credit_line,
          margin_required: c.margin_required,
          floating_pnl: c.floating_pnl,
        },
      });
      await notifyMarginCall(tx, {
        tenantId,
        pricerId: c.pricer_id,
        inCall: c.margin_call,
        callAmount: c.call_amount,
        available: c.available,
      });
    }
  });
}

/** The running watcher of a database, for the money writes' wake (one per process: main.ts's jobs). */
const watchers = new WeakMap<object, MarginWatch>();

/** A write of money (入金/出金/调整, 授信, 结算) may begin or end a call: the company is marked at once. */
export function wakeMarginWatch(db: Kysely<DB>, tenantId: number) {
  watchers.get(db)?.wake({ tenants: [tenantId] });
}

export interface MarginWatch {
  /** Marks every company now (the fallback's run), or joins the run under way. */
  runOnce(): Promise<void>;
  /** Marks what moved soon: the companies pricing by these instruments, and these companies. */
  wake(what: { symbols?: readonly string[]; tenants?: readonly number[] }): void;
  /** Resolves once nothing is waiting or running (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The margin watcher: woken by ticks (`onTick`) and money writes, at most one run every `gapMs` (default
 * 250 ms: a tick reaches the desk's bell and the webhook's outbox within a second), one at a time; every
 * `everyMs` (default a minute) every company is marked as a fallback. Stopped by the server's onClose.
 */
export function watchMarginCalls(opts: {
  db: Kysely<DB>;
  lastPrice: LastPriceOf;
  onTick?: (listener: (quotes: readonly { symbol?: string }[]) => void) => () => void;
  everyMs?: number;
  gapMs?: number;
  logger?: Logger;
}): MarginWatch {
  const logger = opts.logger ?? consoleLogger;
  const gapMs = opts.gapMs ?? 250;
  const lastPrice: LastPriceOf = (symbol) => {
    const v = opts.lastPrice(symbol);
    return v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  const symbols = new Set<string>();
  const tenants = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastStart = 0;
  let stopped = false;

  const markMoved = async () => {
    const syms = [...symbols];
    const ids = new Set(tenants);
    symbols.clear();
    tenants.clear();
    for (const t of await tenantsPricedBy(opts.db, syms)) ids.add(t);
    if (ids.size) await markAccounts(opts.db, lastPrice, ids);
  };
  const schedule = () => {
    if (stopped || timer || running || (!symbols.size && !tenants.size)) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        lastStart = Date.now();
        running = markMoved()
          .catch((err: unknown) => logger.error({ err }, 'margin calls: run failed'))
          .finally(() => {
            running = undefined;
            schedule();
          });
      },
      Math.max(0, lastStart + gapMs - Date.now()),
    );
    timer.unref();
  };
  const wake: MarginWatch['wake'] = (what) => {
    for (const s of what.symbols ?? []) symbols.add(s);
    for (const t of what.tenants ?? []) tenants.add(t);
    schedule();
  };
  const offTick = opts.onTick?.((quotes) => wake({ symbols: quotes.flatMap((q) => (q.symbol ? [q.symbol] : [])) }));
  const fallback = every(
    'margin calls',
    opts.everyMs ?? 60_000,
    async () => void (await markAccounts(opts.db, lastPrice)),
    logger,
  );
  const watch: MarginWatch = {
    runOnce: () => fallback.runOnce(),
    wake,
    async idle() {
      while (timer || running) {
        await running;
        if (timer) await new Promise((r) => setTimeout(r, gapMs));
      }
    },
    async stop() {
      stopped = true;
      offTick?.();
      if (watchers.get(opts.db) === watch) watchers.delete(opts.db);
      clearTimeout(timer);
      timer = undefined;
      await Promise.all([running, fallback.stop()]);
    },
  };
  watchers.set(opts.db, watch);
  return watch;
}
