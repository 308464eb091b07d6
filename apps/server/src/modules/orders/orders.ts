import { CANCELLABLE, ORDER_MESSAGES, type CancelOrderResult, type submitOrderInput } from '@pfp/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { DB, Direction } from '../../platform/db/schema';
import { audit, redact } from '../audit/audit';
import type { FixingPerson } from '../authorised/authorised';
import { conflict, DomainError, invalid, notFound } from '../../platform/errors';
import { freezeLots, freezeLotsSql, releaseLots } from '../../trading/lots';
import { CLAIM, claimedOrder, nextStatus, ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { limitPriceProblem, type PriceBand } from './priceRules';
import { firstOpenDeadline, notFixableReason } from '../contracts/fixingTerms';
import { assertMargin, marginCheckSql, withMarginPrices } from '../margin/check';
import { noMarket, type LastPriceOf } from '../margin/market';
import { inTransaction, retryDeadlockVictim } from '../../platform/db/transaction';

const PENDING = 'PENDING' as const;

/**
 * The fixing: in ONE transaction freeze the lots on the contract (a conditional update: two racing
 * submits cannot both pass) and insert the PENDING order. With a client_order_id, a retry of the
 * same key by the same customer answers with the first order and fixes nothing again (the unique
 * index settles racing tries). A limit price the exchange would refuse is refused here.
 */
export async function submitOrder(
  db: Kysely<DB>,
  /** `person`: the 授权点价人 who fixes (docs/authorised-pricers.md), named on the order and its audit row. */
  who: FixingWho,
  input: z.output<typeof submitOrderInput>,
  events?: TradingPort,
  priceBand?: (symbol: string) => PriceBand | undefined,
  now: Date = new Date(),
  /** The live prices the margin check values a market order and floating P/L at (the context's quotes). */
  lastPrice: LastPriceOf = noMarket,
  /** Why the contract's future does not trade now (the context's outOfSession): refused 409, nothing frozen. */
  outOfSession?: (symbol: string, at: Date) => string | undefined,
) {
  const key = input.client_order_id;
  const existing = () =>
    db
      .selectFrom('orders')
      .selectAll()
      .where('tenant_id', '=', who.tenantId)
      .where('pricer_id', '=', who.pricerId)
      .where('client_order_id', '=', key!)
      .executeTakeFirst();
  let created: Awaited<ReturnType<typeof insertOrder>>;
  const gatewayKey = events?.claimFor?.(who.tenantId);
  try {
    created = await insertOrder(db, { who, input, priceBand, now, gatewayKey, lastPrice, outOfSession });
  } catch (err) {
    // A retry of an order already taken (its key's unique index refused the insert, or its lots are
    // no longer there): answered with that order, nothing fixed again. The first try's read is saved
    // this way: a retry is rare, and a refused insert rolls back what it froze.
    if (key) {
      const first = await existing();
      if (first) return sameOrder(first, input);
    }
    throw err;
  }
  events?.created(
    created.id,
    who.tenantId,
    gatewayKey && created.status === CLAIM.to ? claimedOrder(created, gatewayKey) : undefined,
  );
  return created;
}

/**
 * A retry must be the same order: the same key with another contract, quantity or price is refused
 * (409), never answered with the first order as if it were this one.
 */
function sameOrder<O extends { contract_id: number; volume_orign: number; limit_price: number | string }>(
  first: O,
  input: z.output<typeof submitOrderInput>,
): O {
  if (
    first.contract_id === input.contract_id &&
    first.volume_orign === input.quantity &&
    Number(first.limit_price) === input.price
  )
    return first;
  throw new DomainError('conflict', ORDER_MESSAGES.clientOrderIdReused, {
    code: 'client_order_id_reused',
    field: 'client_order_id',
  });
}

/** What the one-statement submit assumes of a contract: its instrument (never changes) and that instrument's tick. */
interface ContractInstrument {
  instrument_id: string;
  price_tick: number;
  /** Whether the contract carries a margin rate (immutable): only then does its statement run the margin check. */
  margined: boolean;
}

/** Per database (tests open many in one process), per contract id; bounded. A hint: the statement re-checks both. */
const knownInstruments = new WeakMap<Kysely<DB>, Map<number, ContractInstrument>>();
const KNOWN_MAX = 10_000;

function remember(db: Kysely<DB>, contractId: number, c: ContractInstrument) {
  let known = knownInstruments.get(db);
  if (!known) knownInstruments.set(db, (known = new Map()));
  if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value as number);
  known.set(contractId, c);
}

/** One submit: who fixes what, the price band it is checked against, when, and the gateway it is taken for. */
interface Submit {
  who: FixingWho;
  input: z.output<typeof submitOrderInput>;
  priceBand: ((symbol: string) => PriceBand | undefined) | undefined;
  now: Date;
  gatewayKey: string | undefined;
  lastPrice: LastPriceOf;
  outOfSession: ((symbol: string, at: Date) => string | undefined) | undefined;
}

async function insertOrder(db: Kysely<DB>, submit: Submit) {
  const { input, priceBand } = submit;
  return withMarginPrices(db, submit.who, submit.lastPrice, async (prices) => {
    const known = knownInstruments.get(db)?.get(input.contract_id);
    if (
      known &&
      !limitPriceProblem(input.price, known.price_tick, priceBand?.(known.instrument_id)) &&
      !submit.outOfSession?.(known.instrument_id, submit.now)
    ) {
      const row = await retryDeadlockVictim(() => insertOrderAtOnce(db, submit, known, prices(known.instrument_id)));
      if (row) return row;
    }
    // The first fixing of a contract in this process, or anything refused: the checks one by one, to say why.
    const row = await insertOrderChecked(db, submit, prices);
    if (row.price_tick !== null)
      remember(db, row.contract_id, {
        instrument_id: row.instrument_id,
        price_tick: row.price_tick,
        margined: row.margined,
      });
    const { price_tick: _, margined: __, ...order } = row;
    return order;
  });
}

/**
 * The fixing in ONE statement (no BEGIN/COMMIT round trips: docs/performance.md): freeze the lots,
 * check the customer's margin (on a contract with a rate: margin_check, whose refusal raises and
 * changes nothing), insert the order and its audit row, when the contract's instrument, tick and rate
 * are those `known` says. Nothing (undefined) when the contract cannot be fixed so: the caller then
 * takes the checked path, which says why. With a `gatewayKey` the order is also taken for that gateway
 * (ALIVE '已发送' and its order_dispatch row, as the router's claim in trading/apply.ts leaves it).
 */
async function insertOrderAtOnce(
  db: Kysely<DB>,
  { who, input, now, gatewayKey }: Submit,
  known: ContractInstrument,
  prices: string,
) {
  const payload = JSON.stringify(redact({ ...input, ...fixedBy(who) }));
  const key = gatewayKey ?? null;
  const { rows } = await sql<Selectable<DB['orders']>>`
    with frozen as (
      ${freezeLotsSql(who, input.contract_id, input.quantity, firstOpenDeadline(now), known)}
    ),
    checked as (
      select ${known.margined ? marginCheckSql(who, input.contract_id, input, prices) : sql`false`} as margined from frozen
    ),
    placed as (
      insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, limit_price,
                          basis, status, last_msg, client_order_id, authorised_pricer_id)
      select ${who.tenantId}::integer, f.id, ${who.pricerId}::integer, f.instrument_id, f.direction,
             ${input.quantity}::integer, ${input.price}::numeric, f.basis,
             ${key === null ? PENDING : CLAIM.to}::text, ${key === null ? ORDER_TEXTS.waiting : CLAIM.text}::text,
             ${input.client_order_id ?? null}::text, ${who.person?.id ?? null}::integer
        from frozen f cross join checked
      returning *
    ),
    audited as (
      insert into audit_log (tenant_id, actor, action, payload)
      select ${who.tenantId}::integer, ${`pricer:${who.pricerId}`}::text, 'submit-order',
             ${payload}::jsonb || jsonb_build_object('order_id', placed.id)
        from placed
    ),
    dispatched as (
      insert into order_dispatch (order_id, tenant_id, gateway_key)
      select placed.id, ${who.tenantId}::integer, ${key}::text from placed where ${key}::text is not null
    )
    select * from placed`.execute(db);
  return rows[0];
}

async function insertOrderChecked(
  db: Kysely<DB>,
  { who, input, priceBand, now, outOfSession }: Submit,
  prices: (symbol: string) => string,
) {
  return inTransaction(db, async (tx) => {
    const frozen = await freezeForFixing(tx, who, input, now);
    // Thrown inside the transaction: the lots just frozen go back.
    const shut = outOfSession?.(frozen.instrument_id, now);
    if (shut) throw conflict(shut, 'market_closed');
    const problem = limitPriceProblem(input.price, frozen.price_tick ?? undefined, priceBand?.(frozen.instrument_id));
    if (problem) throw invalid(problem, 'price');
    const { margined } = await assertMargin(tx, who, frozen.id, input, prices(frozen.instrument_id));
    const row = await tx
      .insertInto('orders')
      .values({
        ...fixingParty(who, frozen),
        volume_orign: input.quantity,
        limit_price: input.price,
        basis: frozen.basis,
        status: PENDING,
        last_msg: ORDER_TEXTS.waiting,
        client_order_id: input.client_order_id ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId: who.tenantId,
      actor: `pricer:${who.pricerId}`,
      action: 'submit-order',
      payload: { ...input, ...fixedBy(who), order_id: row.id },
    });
    return { ...row, price_tick: frozen.price_tick, margined };
  });
}

/**
 * Holds `input.quantity` lots of the contract for a fixing (an order, or a condition that waits to
 * become one), in the caller's transaction; refuses, saying why, when the contract cannot give them.
 */
export async function freezeForFixing(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  input: { contract_id: number; quantity: number },
  now: Date,
) {
  const frozen = await freezeLots(tx, who, input.contract_id, input.quantity, firstOpenDeadline(now));
  if (!frozen) throw await whyNotFrozen(tx, who, input, now);
  return frozen;
}

/** The columns a fixing row (an order, a condition) takes from its customer and the contract whose lots it holds. */
export function fixingParty(who: FixingWho, frozen: { id: number; instrument_id: string; direction: Direction }) {
  return {
    tenant_id: who.tenantId,
    contract_id: frozen.id,
    pricer_id: who.pricerId,
    instrument_id: frozen.instrument_id,
    direction: frozen.direction,
    authorised_pricer_id: who.person?.id ?? null,
  };
}

/** Who fixes: the customer and, from a desk, the 授权点价人 signed in (docs/authorised-pricers.md). */
export type FixingWho = { tenantId: number; pricerId: number; person?: FixingPerson };

/** The audit row's 点价人: the person's name (and id), when a person fixes. */
export const fixedBy = (who: FixingWho) =>
  who.person ? { authorised_pricer: who.person.name, person_id: who.person.id } : {};

async function whyNotFrozen(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  input: { contract_id: number; quantity: number },
  now: Date,
) {
  const c = await tx
    .selectFrom('contracts')
    .select(['status', 'remaining_quantity', 'tenant_id', 'pricer_id', 'fixing_deadline', 'pricing_mode'])
    .where('id', '=', input.contract_id)
    .executeTakeFirst();
  if (!c || c.tenant_id !== who.tenantId || c.pricer_id !== who.pricerId) return notFound('合同不存在');
  const reason = notFixableReason(c, now);
  if (reason) return conflict(`${reason}，不能下单`, 'contract_not_active');
  return invalid(ORDER_MESSAGES.exceedsRemaining(c.remaining_quantity), 'quantity');
}

/**
 * Cancel. A PENDING order has not reached the broker: it is cancelled here and its lots go back
 * to the contract. An ALIVE order is cancelled at the broker; the router applies the result.
 * The trader may cancel PENDING and ALIVE orders, a customer only their own ALIVE ones.
 */
export async function cancelOrder(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId?: number; actor: string },
  orderId: number,
  events?: TradingPort,
): Promise<CancelOrderResult> {
  const result = await db.transaction().execute(async (tx) => {
    const o = await tx
      .selectFrom('orders')
      .select(['id', 'tenant_id', 'pricer_id', 'status', 'contract_id', 'volume_orign', 'volume_traded'])
      .where('id', '=', orderId)
      .forUpdate()
      .executeTakeFirst();
    if (!o || o.tenant_id !== who.tenantId || (who.pricerId !== undefined && o.pricer_id !== who.pricerId)) {
      throw notFound('订单不存在');
    }
    const mayCancel: readonly string[] = who.pricerId === undefined ? CANCELLABLE.trader : CANCELLABLE.pricer;
    const event = o.status === 'PENDING' ? 'cancel' : 'requestCancel';
    const next = nextStatus(o.status, event);
    if (!mayCancel.includes(o.status) || next === undefined) {
      throw conflict(
        o.status === 'PENDING' ? '订单正在发送，请稍后再撤' : '订单已结束，不能撤单',
        'order_not_cancellable',
      );
    }
    await audit(tx, {
      tenantId: who.tenantId,
      actor: who.actor,
      action: 'cancel-order',
      // A PENDING order's lots go back here (the broker's answer does it for an ALIVE one: order-ended).
      payload: { order_id: orderId, ...(event === 'cancel' ? { released: o.volume_orign - o.volume_traded } : {}) },
    });
    if (event === 'requestCancel') {
      // Recorded with the answer, like a submit's PENDING row: if the process dies before the
      // router sends it, the router's sweep finds the request and sends it (docs/trading.md).
      await sql`update order_dispatch set cancel_requested_at = coalesce(cancel_requested_at, now())
                where order_id = ${orderId}`.execute(tx);
      return { status: 'CANCEL_REQUESTED' as const };
    }
    await tx
      .updateTable('orders')
      .set({ status: next, last_msg: ORDER_TEXTS.cancelled, updated_at: new Date() })
      .where('id', '=', o.id)
      .execute();
    await releaseLots(tx, o.contract_id, o.volume_orign - o.volume_traded);
    return { status: 'CANCELLED' as const };
  });
  if (result.status === 'CANCEL_REQUESTED') events?.cancelRequested(orderId, who.tenantId);
  return result;
}
