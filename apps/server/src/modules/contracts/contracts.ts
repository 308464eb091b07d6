import { inTransaction } from '../../platform/db/transaction';
import type { createContractInput, updateContractStatusInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ContractStatus, DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';
import { conflict, invalid, notFound } from '../../platform/errors';
import { resolveMarginRate } from '../margin/rates';
import { isCommodityProduct } from './commodity';
import {
  assertBasis,
  assertDeadlineOpen,
  assertDeadlineTradingDay,
  assertGoodsPrice,
  checkAverageWindow,
  isPastDeadline,
} from './fixingTerms';
import { noMarket, type LastPriceOf } from '../margin/market';
import { notifyContract } from '../notifications/notify';

export async function createContract(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof createContractInput>,
  now: Date = new Date(),
  /** The live futures prices: a basis that makes the goods price ≤ 0 at the market is refused. */
  lastPrice: LastPriceOf = noMarket,
) {
  assertBasis(input.basis);
  assertDeadlineOpen(input.fixing_deadline, now);
  assertDeadlineTradingDay(input.fixing_deadline, input.instrument_id);
  const window = checkAverageWindow(input, input.fixing_deadline, now);
  return inTransaction(db, async (tx) => {
    const pricer = await tx
      .selectFrom('pricer_users')
      .select(['id', 'username'])
      .where('id', '=', input.pricer_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!pricer) throw notFound('客户不存在');
    const instrument = await tx
      .selectFrom('instruments')
      .select(['symbol', 'name', 'product_name', 'expired'])
      .where('symbol', '=', input.instrument_id)
      .executeTakeFirst();
    if (!instrument || instrument.expired) throw invalid('期货合约不存在或已到期', 'instrument_id');
    if (instrument.product_name !== input.product_name) throw invalid('期货合约与品种不符', 'instrument_id');
    assertGoodsPrice(input.basis, lastPrice(instrument.symbol), 'basis');
    // Goods are priced off commodity futures only: index and bond futures count no goods.
    if (!isCommodityProduct(input.product_name)) {
      throw invalid(
        `点价合同只能选择商品期货，${input.product_name}是金融期货（股指、国债等），不能用于实物点价`,
        'product_name',
      );
    }
    const name = input.name || `${instrument.name}-${pricer.username}`;
    // Margin on by default (issue 41): a rate given (0 included) is the contract's, else the customer's,
    // the product's or the company's, stored so that the margin check reads it as it is.
    const rate =
      input.margin_rate != null
        ? { margin_rate: input.margin_rate, source: 'contract' as const }
        : await resolveMarginRate(tx, tenantId, pricer.id, input.product_name);
    const row = await tx
      .insertInto('contracts')
      .values({
        tenant_id: tenantId,
        name,
        pricer_id: pricer.id,
        product_name: input.product_name,
        instrument_id: instrument.symbol,
        direction: input.direction,
        total_quantity: input.total_quantity,
        remaining_quantity: input.total_quantity,
        status: input.status === 'completed' ? 'active' : input.status,
        basis: input.basis,
        fixing_deadline: input.fixing_deadline,
        margin_rate: rate.margin_rate,
        pricing_mode: input.pricing_mode,
        average_start: window?.start ?? null,
        average_end: window?.end ?? null,
        // A point contract keeps the column's default: its basis means nothing (shown as null).
        ...(window ? { average_basis: window.basis } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId,
      actor,
      action: 'create-contract',
      payload: {
        ...input,
        ...(window ? { average_basis: window.basis } : {}),
        margin_rate: Number(row.margin_rate),
        margin_rate_source: rate.source,
        id: row.id,
      },
    });
    return { ...row, average_basis: window ? row.average_basis : null };
  });
}

export async function updateContractStatus(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updateContractStatusInput>,
  now: Date = new Date(),
) {
  return db.transaction().execute(async (tx) => {
    const c = await tx
      .selectFrom('contracts')
      .select(['id', 'status', 'remaining_quantity', 'frozen_quantity', 'fixing_deadline'])
      .where('id', '=', input.contract_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!c) throw notFound('合同不存在');
    const to: ContractStatus = input.new_status;
    if (to === 'active' && c.remaining_quantity === 0 && c.frozen_quantity === 0) {
      throw conflict('合同已全部执行，不能重新激活', 'contract_fully_executed');
    }
    if ((to === 'active' || to === 'paused') && isPastDeadline(c.fixing_deadline, now)) {
      throw conflict(`合同已过点价截止日（${c.fixing_deadline}），不能重新开放点价`, 'contract_past_deadline');
    }
    const row = await tx
      .updateTable('contracts')
      .set({ status: to, updated_at: new Date() })
      .where('id', '=', c.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, { tenantId, actor, action: 'update-contract-status', payload: { ...input, from: c.status } });
    if (to === 'paused' && c.status !== 'paused') await notifyContract(tx, 'contract_paused', c.id);
    return row;
  });
}
