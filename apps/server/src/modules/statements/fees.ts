import type { feeReceivable, feeReceivablesRequest, settleFeeInput } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { inTransaction } from '../../platform/db/transaction';
import { conflict, notFound } from '../../platform/errors';
import { audit } from '../audit/audit';
import { accountRows, lockAccount } from '../margin/accounts';
import { figuresFromSums, round2, yuan } from '../margin/arithmetic';
import { assertBalance } from '../margin/bounds';
import type { LastPriceOf } from '../margin/market';

/**
 * Fee receivables (应收费用, docs/statements.md): a roll or extension fee is charged open
 * (modules/lifecycle/fees.ts) and settled once by the trader — collected from the customer's funds,
 * offset outside the platform, or waived.
 */

export const FEE_MESSAGES = {
  notFound: '费用不存在',
  settled: '该费用已处理，不能重复处理',
  collectTooMuch: (amount: number, free: number) =>
    `客户可扣资金不足：本笔费用 ${yuan(amount)} 元，可扣 ${yuan(free)} 元（不动用保证金和授信）。可改为冲抵或减免，或待客户入金后再扣收`,
  ledgerNote: (id: number, note: string) => `扣收费用 #${id}${note ? `：${note}` : ''}`,
} as const;

/** A fee as the server holds it (Dates; the wire carries ISO strings). */
export type FeeRow = z.output<typeof feeReceivable>;

/** The fee rows with the contract's name and the customer's 客户全称. */
export function feeQuery(db: Kysely<DB>, tenantId: number) {
  return db
    .selectFrom('fee_receivables as f')
    .innerJoin('contracts as c', 'c.id', 'f.contract_id')
    .innerJoin('pricer_users as u', 'u.id', 'f.pricer_id')
    .select([
      'f.id',
      'f.pricer_id',
      sql<string>`coalesce(nullif(u.full_name, ''), u.username)`.as('pricer_name'),
      'f.contract_id',
      'c.name as contract_name',
      'f.kind',
      'f.amount',
      'f.note',
      'f.created_at',
      'f.status',
      'f.settled_at',
      'f.settle_note',
      'f.ledger_entry_id',
    ])
    .where('f.tenant_id', '=', tenantId);
}

export const feeOut = (r: {
  id: number;
  amount: number | string;
  ledger_entry_id: number | null;
}): { id: number; amount: number; ledger_entry_id: number | null } => ({
  ...r,
  id: Number(r.id),
  amount: Number(r.amount),
  ledger_entry_id: r.ledger_entry_id === null ? null : Number(r.ledger_entry_id),
});

export async function listFees(db: Kysely<DB>, tenantId: number, input: z.output<typeof feeReceivablesRequest>) {
  let q = feeQuery(db, tenantId);
  if (input.pricer_id !== undefined) q = q.where('f.pricer_id', '=', input.pricer_id);
  const status = input.status ?? 'open';
  if (status !== 'all') q = q.where('f.status', '=', status);
  const rows = (await q.orderBy('f.id', 'desc').limit(1000).execute()).map((r) => ({ ...r, ...feeOut(r) }));
  const outstanding = round2(rows.filter((r) => r.status === 'open').reduce((a, r) => a + r.amount, 0));
  return { items: rows, total_count: rows.length, outstanding };
}

/**
 * Settles one open fee, in one transaction with the fee row locked (two settlements of one fee: the
 * second is a 409). Collecting posts an 调整 of −amount to the customer's funds ledger — no more than
 * their own money that no margin or loss holds (as a withdrawal: available − credit line), so it never
 * puts them in a margin call. Audited as settle-fee.
 */
export async function settleFee(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof settleFeeInput>,
  lastPrice: LastPriceOf,
): Promise<FeeRow> {
  return inTransaction(db, async (tx) => {
    const fee = await tx
      .selectFrom('fee_receivables')
      .selectAll()
      .where('id', '=', input.fee_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!fee) throw notFound(FEE_MESSAGES.notFound);
    if (fee.status !== 'open') throw conflict(FEE_MESSAGES.settled);
    const amount = Number(fee.amount);
    let ledgerEntryId: number | null = null;
    let balanceAfter: number | null = null;
    if (input.method === 'collect') {
      const who = { tenantId, pricerId: fee.pricer_id };
      const account = await lockAccount(tx, who);
      const now = figuresFromSums(account, (await accountRows(tx, who))[0]?.sums ?? [], lastPrice);
      const free = Math.max(0, round2(now.available - now.credit_line));
      if (amount > free) throw conflict(FEE_MESSAGES.collectTooMuch(amount, free));
      balanceAfter = round2(account.balance - amount);
      assertBalance(balanceAfter, 'fee_id');
      await tx
        .updateTable('pricer_accounts')
        .set({ balance: balanceAfter, updated_at: new Date() })
        .where('pricer_id', '=', fee.pricer_id)
        .execute();
      const entry = await tx
        .insertInto('funds_ledger')
        .values({
          tenant_id: tenantId,
          pricer_id: fee.pricer_id,
          kind: 'adjust',
          amount: -amount,
          balance_after: balanceAfter,
          note: FEE_MESSAGES.ledgerNote(fee.id, fee.note).slice(0, 200),
          actor,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ledgerEntryId = Number(entry.id);
    }
    const status = input.method === 'collect' ? 'collected' : input.method === 'offset' ? 'offset' : 'waived';
    await tx
      .updateTable('fee_receivables')
      .set({
        status,
        settled_at: new Date(),
        settled_by: actor,
        settle_note: input.note,
        ledger_entry_id: ledgerEntryId,
      })
      .where('id', '=', fee.id)
      .execute();
    await audit(tx, {
      tenantId,
      actor,
      action: 'settle-fee',
      payload: {
        fee_id: fee.id,
        pricer_id: fee.pricer_id,
        contract_id: fee.contract_id,
        method: input.method,
        amount,
        note: input.note,
        ...(ledgerEntryId !== null ? { ledger_entry_id: ledgerEntryId, balance_after: balanceAfter } : {}),
      },
    });
    const row = await feeQuery(tx, tenantId).where('f.id', '=', fee.id).executeTakeFirstOrThrow();
    return { ...row, ...feeOut(row) };
  });
}
