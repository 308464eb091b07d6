import { zh } from '@pfp/i18n';
import { MAX_BASIS, type rollContractInput, type RollConfirmation } from '@pfp/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { ContractTable, DB } from '../../platform/db/schema';
import { conflict, invalid, notFound } from '../../platform/errors';
import { beijingText } from '../../platform/time';
import { isOnTick, tickDecimals } from '../../market/catalogue';
import { round2 } from '../margin/arithmetic';
import { assertAmount } from '../margin/bounds';
import { audit } from '../audit/audit';
import { assertDeadlineOpen, assertDeadlineTradingDay, assertGoodsPrice } from '../contracts/fixingTerms';
import { noMarket, type LastPriceOf } from '../margin/market';
import { chargeFee } from './fees';
import { inTransaction } from '../../platform/db/transaction';
import { assertBeforeExpiry, latestDeadline } from './terms';
import { notifyContractRolled } from '../notifications/notify';

const E = zh.lifecycle.errors;
const STATUS_TEXT: Record<string, string> = { completed: '已完成' };

export type ContractRow = Selectable<ContractTable>;

/** Locks a contract of the tenant for the rest of the transaction; 404 when it is not theirs. */
export async function lockContract(tx: Transaction<DB>, tenantId: number, id: number): Promise<ContractRow> {
  const c = await tx
    .selectFrom('contracts')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!c) throw notFound(E.contractNotFound);
  return c;
}

/** The working orders and waiting 条件单 holding a contract's frozen lots (what a roll asks to cancel first). */
export async function heldBy(db: Kysely<DB>, contractId: number) {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'volume_orign', 'volume_traded', 'status'])
    .where('contract_id', '=', contractId)
    .where('status', 'in', ['PENDING', 'ALIVE'])
    .orderBy('id')
    .execute();
  const conditions = await db
    .selectFrom('conditional_orders')
    .select(['id', 'quantity'])
    .where('contract_id', '=', contractId)
    .where('status', '=', 'WAITING')
    .orderBy('id')
    .execute();
  return { orders, conditions };
}

/**
 * 转月 (docs/fixing.md): `quantity` unfixed lots leave the contract for a new one on another month of
 * the same product, with basis + spread, the same customer, side and margin rate, linked by
 * rolled_from. The old contract's total stays as agreed; the lots count as rolled out. One
 * transaction with the old contract locked: a submit racing it either froze its lots first (the roll
 * then sees them held and refuses) or finds them gone.
 */
export async function rollContract(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof rollContractInput>,
  now: Date = new Date(),
  /** The live futures prices: a new basis that makes the goods price ≤ 0 at the market is refused. */
  lastPrice: LastPriceOf = noMarket,
) {
  if (input.fixing_deadline) assertDeadlineOpen(input.fixing_deadline, now);
  return inTransaction(db, (tx) => rollIn(tx, tenantId, actor, input, now, lastPrice));
}

/** The month a contract may roll to: another live future of the same product (400 naming to_instrument_id). */
export async function rollTarget(
  db: Kysely<DB>,
  old: Pick<ContractRow, 'instrument_id' | 'product_name'>,
  symbol: string,
) {
  if (symbol === old.instrument_id) throw invalid(E.sameMonth, 'to_instrument_id');
  const to = await db
    .selectFrom('instruments')
    .select(['symbol', 'name', 'product_name', 'expired', 'price_tick', 'volume_multiple', 'unit'])
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  if (!to || to.expired) throw invalid(E.instrumentUnknown, 'to_instrument_id');
  if (to.product_name !== old.product_name) throw invalid(E.otherProduct(old.product_name), 'to_instrument_id');
  return to;
}

/**
 * What a roll agrees on: the trader's direct roll-contract (agreed off the platform, agreed_via says how)
 * or the customer's accepted application (modules/lifecycle/applications.ts).
 */
export type RollTerms = Omit<z.output<typeof rollContractInput>, 'agreed_via'> & {
  agreed_via: z.output<typeof rollContractInput>['agreed_via'] | 'application';
  application_id?: number;
};

/** The roll in the caller's transaction: the old contract is locked here (after any row the caller locked first). */
export async function rollIn(
  tx: Transaction<DB>,
  tenantId: number,
  actor: string,
  input: RollTerms,
  now: Date,
  lastPrice: LastPriceOf,
) {
  const old = await lockContract(tx, tenantId, input.contract_id);
  if (old.status === 'completed') throw conflict(E.notRollable(STATUS_TEXT.completed!), 'contract_not_active');
  if (old.pricing_mode === 'average') throw conflict(E.averageNotRollable, 'contract_not_active');
  const to = await rollTarget(tx, old, input.to_instrument_id);
  if (input.quantity > old.remaining_quantity) {
    if (input.quantity <= old.remaining_quantity + old.frozen_quantity) {
      const held = await heldBy(tx, old.id);
      throw conflict(
        E.heldLots(
          held.orders.length ? E.heldOrders(held.orders.map((o) => `#${o.id}（${o.volume_orign} 手）`).join('、')) : '',
          held.conditions.length
            ? E.heldConditions(held.conditions.map((k) => `#${k.id}（${k.quantity} 手）`).join('、'))
            : '',
        ),
        'conflict',
      );
    }
    throw invalid(E.moreThanRemain(old.remaining_quantity, old.frozen_quantity), 'quantity');
  }
  const tick = Number(to.price_tick);
  if (!isOnTick(input.spread, tick)) throw invalid(E.spreadTick(tick.toFixed(tickDecimals(tick))), 'spread');
  const deadline = input.fixing_deadline ?? latestDeadline(to.symbol, now)?.latest ?? old.fixing_deadline;
  if (!deadline) throw invalid(zh.lifecycle.errors.deadlineNotLater('—'), 'fixing_deadline');
  assertDeadlineOpen(deadline, now);
  assertBeforeExpiry(deadline, to.symbol, now);
  assertDeadlineTradingDay(deadline, to.symbol);

  const multiplier = to.volume_multiple;
  const fee = round2(input.fee_per_unit * input.quantity * multiplier);
  assertAmount(fee, 'fee_per_unit', E.rollFeeTotal);
  const newBasis = round2(Number(old.basis) + input.spread);
  if (Math.abs(newBasis) > MAX_BASIS) throw invalid(E.basisAfterRoll, 'spread');
  assertGoodsPrice(newBasis, lastPrice(to.symbol), 'spread');
  const left = old.remaining_quantity - input.quantity;
  const from = await tx
    .updateTable('contracts')
    .set((eb) => ({
      // The total stays as agreed: the lots leave remaining for rolled_out (trading/lots.ts's invariant).
      remaining_quantity: left,
      rolled_out_quantity: eb('rolled_out_quantity', '+', input.quantity),
      status: left === 0 && old.frozen_quantity === 0 ? 'completed' : old.status,
      updated_at: now,
    }))
    .where('id', '=', old.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const created = await tx
    .insertInto('contracts')
    .values({
      tenant_id: tenantId,
      name: `${to.name}-${old.name}`.slice(0, 100),
      pricer_id: old.pricer_id,
      product_name: old.product_name,
      instrument_id: to.symbol,
      direction: old.direction,
      total_quantity: input.quantity,
      remaining_quantity: input.quantity,
      status: 'active',
      basis: newBasis,
      fixing_deadline: deadline,
      margin_rate: old.margin_rate,
      rolled_from: old.id,
      fees: fee,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const confirmation: RollConfirmation = {
    confirmation_no: `ZY${beijingText(now).slice(0, 10).replaceAll('-', '')}-${String(created.id).padStart(6, '0')}`,
    from_contract_id: old.id,
    to_contract_id: created.id,
    from_instrument_id: old.instrument_id,
    to_instrument_id: to.symbol,
    direction: old.direction,
    quantity: input.quantity,
    multiplier,
    unit: to.unit,
    old_basis: Number(old.basis),
    new_basis: newBasis,
    spread: input.spread,
    fee_per_unit: input.fee_per_unit,
    fee,
    fixing_deadline: deadline,
    agreed_via: input.agreed_via,
    ...(input.agreed_note ? { agreed_note: input.agreed_note } : {}),
    ...(input.application_id ? { application_id: input.application_id } : {}),
  };
  const feeId = await chargeFee(
    tx,
    { tenantId, pricerId: old.pricer_id },
    { contractId: created.id, kind: 'roll', fee, note: zh.lifecycle.ledgerNote.roll(created.id, input.quantity) },
    actor,
  );
  for (const contractId of [old.id, created.id]) {
    await tx
      .insertInto('contract_events')
      .values({
        tenant_id: tenantId,
        contract_id: contractId,
        kind: 'roll',
        actor,
        payload: JSON.stringify(confirmation),
      })
      .execute();
  }
  await audit(tx, {
    tenantId,
    actor,
    action: 'roll-contract',
    payload: {
      ...input,
      new_contract_id: created.id,
      new_basis: newBasis,
      fee,
      fee_id: feeId ?? null,
    },
  });
  // Told to the customer and the desk in the roll's own transaction (docs/notifications.md).
  await notifyContractRolled(tx, {
    contractId: old.id,
    from: old.instrument_id,
    to: to.symbol,
    lots: input.quantity,
    ref: `roll:${created.id}`,
  });
  return { from, to: created, confirmation };
}
