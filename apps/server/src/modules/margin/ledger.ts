import type { fundsEntry, marginSettings, recordFundsInput, setCreditLineInput } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { conflict, notFound } from '../../platform/errors';
import { shanghaiDayEnd, shanghaiDayStart } from '../../platform/time';
import { audit } from '../audit/audit';
import { inTransaction } from '../../platform/db/transaction';
import { accountRows, lockAccount } from './accounts';
import { assertBalance } from './bounds';
import { figuresFromSums, round2, yuan } from './arithmetic';
import type { LastPriceOf } from './market';

export const FUNDS_MESSAGES = {
  noPricer: '客户不存在',
  withdrawTooMuch: (withdrawable: number) => `出金金额超过可出金额（可出 ${yuan(withdrawable)} 元）`,
} as const;

async function assertPricer(db: Kysely<DB>, who: { tenantId: number; pricerId: number }) {
  const found = await db
    .selectFrom('pricer_users')
    .select('id')
    .where('id', '=', who.pricerId)
    .where('tenant_id', '=', who.tenantId)
    .executeTakeFirst();
  if (!found) throw notFound(FUNDS_MESSAGES.noPricer);
}

/**
 * 入金 / 出金 / 调整: one ledger row (append-only) and the account's balance, in one transaction with the
 * account row locked, audited. A withdrawal may take no more than the customer's own money that no
 * margin or loss holds: balance − margin held + min(floating P/L, 0) (the credit line is not cash).
 */
export async function recordFunds(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof recordFundsInput>,
  lastPrice: LastPriceOf,
  /** 复核人: who approved it, when the approval policy held it (issue 42). */
  checker?: string,
): Promise<z.output<typeof fundsEntry>> {
  const who = { tenantId, pricerId: input.pricer_id };
  const delta = round2(input.kind === 'withdraw' ? -input.amount : input.amount);
  return inTransaction(db, async (tx) => {
    await assertPricer(tx, who);
    const account = await lockAccount(tx, who);
    if (input.kind === 'withdraw') {
      const now = figuresFromSums(account, (await accountRows(tx, who))[0]?.sums ?? [], lastPrice);
      const withdrawable = Math.max(0, round2(now.available - now.credit_line));
      if (input.amount > withdrawable) throw conflict(FUNDS_MESSAGES.withdrawTooMuch(withdrawable));
    }
    const balance = round2(account.balance + delta);
    assertBalance(balance, 'amount');
    await tx
      .updateTable('pricer_accounts')
      .set({ balance, updated_at: new Date() })
      .where('pricer_id', '=', who.pricerId)
      .execute();
    const entry = await tx
      .insertInto('funds_ledger')
      .values({
        tenant_id: tenantId,
        pricer_id: who.pricerId,
        kind: input.kind,
        amount: delta,
        balance_after: balance,
        note: input.note,
        actor,
        bank_ref: input.bank_ref || null,
        checker: checker ?? null,
      })
      .returning([
        'id',
        'pricer_id',
        'kind',
        'amount',
        'balance_after',
        'note',
        'actor',
        'bank_ref',
        'checker',
        'created_at',
      ])
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId,
      actor,
      action: 'record-funds',
      payload: { ...input, entry_id: entry.id, amount: delta, balance_after: balance, ...(checker ? { checker } : {}) },
    });
    return { ...entry, id: Number(entry.id), amount: Number(entry.amount), balance_after: Number(entry.balance_after) };
  });
}

/** 授信额度: set, audited with the one before. */
export async function setCreditLine(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof setCreditLineInput>,
) {
  const who = { tenantId, pricerId: input.pricer_id };
  await inTransaction(db, async (tx) => {
    await assertPricer(tx, who);
    const account = await lockAccount(tx, who);
    await tx
      .updateTable('pricer_accounts')
      .set({ credit_line: input.credit_line, updated_at: new Date() })
      .where('pricer_id', '=', who.pricerId)
      .execute();
    await audit(tx, {
      tenantId,
      actor,
      action: 'set-credit-line',
      payload: { ...input, from: account.credit_line },
    });
  });
}

/** The latest ledger entries of a customer (the customer's own funds page). */
export async function latestEntries(db: Kysely<DB>, who: { tenantId: number; pricerId: number }, limit = 100) {
  const rows = await db
    .selectFrom('funds_ledger')
    .select([
      'id',
      'pricer_id',
      'kind',
      'amount',
      'balance_after',
      'note',
      'actor',
      'bank_ref',
      'checker',
      'created_at',
    ])
    .where('tenant_id', '=', who.tenantId)
    .where('pricer_id', '=', who.pricerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    amount: Number(r.amount),
    balance_after: Number(r.balance_after),
  }));
}

export async function readMarginSettings(db: Kysely<DB>, tenantId: number) {
  const t = await db.selectFrom('tenants').select('default_margin_rate').where('id', '=', tenantId).executeTakeFirst();
  return { default_margin_rate: Number(t?.default_margin_rate ?? 0) };
}

/** The company's default margin rate (contracts created without one), audited. */
export async function setMarginSettings(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof marginSettings>,
) {
  return db.transaction().execute(async (tx) => {
    const before = await readMarginSettings(tx, tenantId);
    // Answered as stored (numeric(6, 4)), never as sent.
    const stored = await tx
      .updateTable('tenants')
      .set({ default_margin_rate: input.default_margin_rate, updated_at: sql<Date>`now()` })
      .where('id', '=', tenantId)
      .returning('default_margin_rate')
      .executeTakeFirst();
    const rate = Number(stored?.default_margin_rate ?? before.default_margin_rate);
    await audit(tx, {
      tenantId,
      actor,
      action: 'set-margin-settings',
      payload: { default_margin_rate: rate, from: before.default_margin_rate },
    });
    return { default_margin_rate: rate };
  });
}

/** A ledger entry as a statement lists it. */
export interface StatementEntry {
  id: number;
  created_at: Date;
  pricer_name: string;
  kind: 'deposit' | 'withdraw' | 'adjust';
  amount: number;
  balance_after: number;
  note: string;
}

/**
 * The ledger entries of a statement's range (Beijing days, inclusive) for a company or one customer,
 * oldest first, in batches (keyset on id), for the statement's 资金流水 sheet.
 */
export async function* ledgerInRange(
  db: Kysely<DB>,
  scope: { tenantId: number; pricerId?: number | undefined },
  range: { start_date: string; end_date: string },
  batch = 500,
): AsyncGenerator<StatementEntry[]> {
  const from = shanghaiDayStart(range.start_date);
  const to = shanghaiDayEnd(range.end_date);
  let after = 0;
  for (;;) {
    let q = db
      .selectFrom('funds_ledger as l')
      .innerJoin('pricer_users as u', 'u.id', 'l.pricer_id')
      .select(['l.id', 'l.created_at', 'u.username as pricer_name', 'l.kind', 'l.amount', 'l.balance_after', 'l.note'])
      .where('l.tenant_id', '=', scope.tenantId)
      .where(sql<boolean>`l.created_at >= ${from} and l.created_at < ${to}`);
    if (scope.pricerId !== undefined) q = q.where('l.pricer_id', '=', scope.pricerId);
    const rows = await q.where('l.id', '>', after).orderBy('l.id').limit(batch).execute();
    if (rows.length)
      yield rows.map((r) => ({
        ...r,
        id: Number(r.id),
        amount: Number(r.amount),
        balance_after: Number(r.balance_after),
      }));
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}
