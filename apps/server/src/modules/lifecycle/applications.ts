import { zh } from '@pfp/i18n';
import {
  MAX_BASIS,
  ROLL_APPLICATION_STATUSES,
  type applyRollInput,
  type priceRollInput,
  type rollApplication,
  type RollApplicationStatus,
} from '@pfp/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { DB, RollApplicationViewRow } from '../../platform/db/schema';
import { conflict, invalid, notFound } from '../../platform/errors';
import { beijingText } from '../../platform/time';
import { inTransaction } from '../../platform/db/transaction';
import { isOnTick, tickDecimals } from '../../market/catalogue';
import { round2 } from '../margin/arithmetic';
import { assertAmount } from '../margin/bounds';
import { audit } from '../audit/audit';
import { notify } from '../notifications/notify';
import type { LastPriceOf } from '../margin/market';
import { lockContract, rollIn, rollTarget } from './roll';

/*
 * 转月 as the customer's application (issue 42 item 3, docs/fixing.md). The customer applies (contract,
 * lots, target month); the trader prices it (月差, 转月费 per unit, how long the offer holds); the
 * customer accepts the offer in time, and only then does the roll run — rollIn, the same roll as the
 * trader's roll-contract, in the accept's transaction. Lock order: the application row, then the contract
 * (then the customer's version and account, as every roll: docs/margin.md "Lock order").
 */

const E = zh.rollApplications.errors;
const LE = zh.lifecycle.errors;
const N = zh.rollApplications.notify;

type Application = z.output<typeof rollApplication>;
type Who = { tenantId: number; pricerId: number };

const isStatus = (s: string): s is RollApplicationStatus =>
  (ROLL_APPLICATION_STATUSES as readonly string[]).includes(s);

function toApplication(r: Selectable<RollApplicationViewRow>): Application {
  if (!isStatus(r.status)) throw new Error(`v_roll_applications status ${r.status}`);
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...r,
    direction: r.direction === 'SELL' ? 'SELL' : 'BUY',
    status: r.status,
    basis: Number(r.basis),
    spread: num(r.spread),
    fee_per_unit: num(r.fee_per_unit),
    fee: num(r.fee),
  };
}

/** One application as the views list it (the trader's company's, or one customer's). */
export async function readApplication(db: Kysely<DB>, scope: { tenantId: number; pricerId?: number }, id: number) {
  let q = db.selectFrom('v_roll_applications').selectAll().where('id', '=', id).where('tenant_id', '=', scope.tenantId);
  if (scope.pricerId !== undefined) q = q.where('pricer_id', '=', scope.pricerId);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(E.notFound);
  return toApplication(row);
}

/** 'HH:mm:ss' Beijing time of an offer's end (the refusals name it). */
const untilText = (d: Date) => beijingText(d).slice(11, 19);

/**
 * The customer applies: their own active point contract, lots that are unfixed and free now, another live
 * month of the product. One open application (pending, or priced and still valid) per contract.
 */
export async function applyRoll(db: Kysely<DB>, who: Who, input: z.output<typeof applyRollInput>, now = new Date()) {
  const id = await inTransaction(db, async (tx) => {
    const c = await lockContract(tx, who.tenantId, input.contract_id);
    if (c.pricer_id !== who.pricerId) throw notFound(LE.contractNotFound);
    if (c.status !== 'active') throw conflict(E.notActive);
    if (c.pricing_mode === 'average') throw conflict(LE.averageNotRollable);
    await rollTarget(tx, c, input.to_instrument_id);
    if (input.quantity > c.remaining_quantity)
      throw invalid(LE.moreThanRemain(c.remaining_quantity, c.frozen_quantity), 'quantity');
    const open = await tx
      .selectFrom('roll_applications')
      .select('id')
      .where('contract_id', '=', c.id)
      .where((eb) =>
        eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'priced'), eb('valid_until', '>', now)])]),
      )
      .executeTakeFirst();
    if (open) throw conflict(E.open(open.id));
    const created = await tx
      .insertInto('roll_applications')
      .values({
        tenant_id: who.tenantId,
        pricer_id: who.pricerId,
        contract_id: c.id,
        to_instrument_id: input.to_instrument_id,
        quantity: input.quantity,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId: who.tenantId,
      actor: `pricer:${who.pricerId}`,
      action: 'apply-roll',
      payload: { ...input, application_id: created.id },
    });
    const pricer = await tx
      .selectFrom('pricer_users')
      .select('username')
      .where('id', '=', who.pricerId)
      .executeTakeFirst();
    const said = N.applied({
      contract: c.name,
      pricer: pricer?.username ?? '',
      lots: input.quantity,
      from: c.instrument_id,
      to: input.to_instrument_id,
    });
    await notify(tx, {
      tenantId: who.tenantId,
      pricerId: who.pricerId,
      kind: 'roll_application',
      ...said,
      ref: `roll-apply:${created.id}`,
    });
    return created.id;
  });
  return readApplication(db, who, id);
}

async function lockApplication(tx: Transaction<DB>, scope: { tenantId: number; pricerId?: number }, id: number) {
  let q = tx.selectFrom('roll_applications').selectAll().where('id', '=', id).where('tenant_id', '=', scope.tenantId);
  if (scope.pricerId !== undefined) q = q.where('pricer_id', '=', scope.pricerId);
  const a = await q.forUpdate().executeTakeFirst();
  if (!a) throw notFound(E.notFound);
  return a;
}

/**
 * The trader's offer: 月差 on the new month's tick, 转月费 per unit, valid for valid_seconds. An offer still
 * valid is not replaced (the customer may be accepting it); an expired one may be priced again.
 */
export async function priceRoll(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof priceRollInput>,
  now = new Date(),
  /** Priced by the auto rule (autoPricing.ts): the band it was within, for the audit row. */
  auto?: { reference_spread: number; max_spread_deviation: number },
) {
  await inTransaction(db, async (tx) => {
    const a = await lockApplication(tx, { tenantId }, input.application_id);
    if (a.status === 'accepted') throw conflict(E.accepted);
    if (a.status === 'priced' && a.valid_until && a.valid_until > now)
      throw conflict(E.stillValid(untilText(a.valid_until)));
    const c = await tx
      .selectFrom('contracts')
      .select(['name', 'basis', 'pricer_id', 'instrument_id', 'product_name'])
      .where('id', '=', a.contract_id)
      .executeTakeFirstOrThrow();
    const to = await rollTarget(tx, c, a.to_instrument_id);
    const tick = Number(to.price_tick);
    if (!isOnTick(input.spread, tick)) throw invalid(LE.spreadTick(tick.toFixed(tickDecimals(tick))), 'spread');
    if (Math.abs(round2(Number(c.basis) + input.spread)) > MAX_BASIS) throw invalid(LE.basisAfterRoll, 'spread');
    const fee = round2(input.fee_per_unit * a.quantity * to.volume_multiple);
    assertAmount(fee, 'fee_per_unit', LE.rollFeeTotal);
    const validUntil = new Date(now.getTime() + input.valid_seconds * 1000);
    await tx
      .updateTable('roll_applications')
      .set({
        status: 'priced',
        spread: input.spread,
        fee_per_unit: input.fee_per_unit,
        valid_until: validUntil,
        priced_by: actor,
        priced_at: now,
        updated_at: now,
      })
      .where('id', '=', a.id)
      .execute();
    await audit(tx, { tenantId, actor, action: 'price-roll', payload: { ...input, fee, ...auto } });
    const pricer = await tx
      .selectFrom('pricer_users')
      .select('username')
      .where('id', '=', a.pricer_id)
      .executeTakeFirst();
    const unit = to.unit ?? '单位';
    await notify(tx, {
      tenantId,
      pricerId: a.pricer_id,
      kind: 'roll_application',
      ...N.priced({
        contract: c.name,
        pricer: pricer?.username ?? '',
        spread: `${input.spread} 元/${unit}`,
        fee: fee.toFixed(2),
        until: `${untilText(validUntil)}（北京时间）`,
      }),
      ref: `roll-price:${a.id}:${now.getTime()}`,
    });
  });
  return readApplication(db, { tenantId }, input.application_id);
}

/**
 * The customer accepts the offer: within its validity, and exactly once — the application row is locked
 * first, so a second accept (or one racing it) waits and then finds it accepted and answers it again.
 * The roll is the trader's roll (rollIn) at the offered terms; if it is refused (lots now held, the
 * contract completed …) nothing changes and the offer stays.
 */
export async function acceptRoll(
  db: Kysely<DB>,
  who: Who,
  applicationId: number,
  now: Date,
  lastPrice: LastPriceOf,
): Promise<Application> {
  await inTransaction(db, async (tx) => {
    const a = await lockApplication(tx, who, applicationId);
    if (a.status === 'accepted') return;
    if (a.status === 'pending' || a.spread === null || a.fee_per_unit === null || !a.valid_until)
      throw conflict(E.notPriced);
    if (a.valid_until <= now) throw conflict(E.expired(`${untilText(a.valid_until)}（北京时间）`));
    const rolled = await rollIn(
      tx,
      who.tenantId,
      `pricer:${who.pricerId}`,
      {
        contract_id: a.contract_id,
        to_instrument_id: a.to_instrument_id,
        quantity: a.quantity,
        spread: Number(a.spread),
        fee_per_unit: Number(a.fee_per_unit),
        agreed_via: 'application',
        agreed_note: '',
        application_id: a.id,
      },
      now,
      lastPrice,
    );
    await tx
      .updateTable('roll_applications')
      .set({ status: 'accepted', accepted_at: now, to_contract_id: rolled.to.id, updated_at: now })
      .where('id', '=', a.id)
      .execute();
  });
  return readApplication(db, who, applicationId);
}
