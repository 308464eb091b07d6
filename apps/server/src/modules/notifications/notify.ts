import { zh } from '@pfp/i18n';
import type { NotificationKind } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';

const T = zh.notifications.texts;

export interface Said {
  title: string;
  body: string;
}

/** One event: the customer's text (`mine`, when a customer is concerned) and the traders' (`desk`). */
export interface NotifyEvent {
  tenantId: number;
  kind: NotificationKind;
  /** The customer concerned: they get `mine`. */
  pricerId?: number | null;
  mine?: Said;
  desk: Said;
  /** Names the event (`deadline-t3:12`): a second notify of the same ref writes nothing (two instances, a retry). */
  ref?: string;
}

/** The robot message (企业微信 / 钉钉 / 飞书 text message): the raw body that is signed and sent. */
export function webhookBody(said: Said): string {
  return JSON.stringify({ msgtype: 'text', text: { content: `【快期点价宝】${said.title}\n${said.body}` } });
}

/**
 * Records an event in the producer's transaction `db`, in ONE statement: the customer's row, the
 * traders' row and — when the company's webhook wants this kind — its outbox row. All or nothing with
 * the producer's change; a ref already recorded writes nothing and answers false.
 */
export async function notify(db: Kysely<DB>, e: NotifyEvent): Promise<boolean> {
  const ref = e.ref ?? null;
  const mine = e.pricerId && e.mine ? e.mine : undefined;
  const { rows } = await sql<{ id: number }>`
    with desk as (
      insert into notifications (tenant_id, audience, pricer_id, kind, title, body, ref)
      values (${e.tenantId}::integer, 'trader', null, ${e.kind}::text, ${e.desk.title}::text, ${e.desk.body}::text, ${ref}::text)
      on conflict (audience, ref) where ref is not null do nothing
      returning id, tenant_id, kind
    ),
    mine as (
      insert into notifications (tenant_id, audience, pricer_id, kind, title, body, ref)
      select ${e.tenantId}::integer, 'pricer', ${e.pricerId ?? null}::integer, ${e.kind}::text,
             ${mine?.title ?? ''}::text, ${mine?.body ?? ''}::text, ${ref}::text
       where ${mine !== undefined}::boolean and exists (select from desk)
      on conflict (audience, ref) where ref is not null do nothing
      returning id
    ),
    outbox as (
      insert into webhook_deliveries (tenant_id, notification_id, kind, body)
      select d.tenant_id, d.id, d.kind, ${webhookBody(e.desk)}::text
        from desk d join tenant_webhooks w on w.tenant_id = d.tenant_id
       where d.kind = any (w.kinds) and w.url <> ''
      returning id
    )
    select id from desk`.execute(db);
  return rows.length > 0;
}

/**
 * Many events with refs in ONE statement (a booking's fills: its transaction gains one statement however
 * many fills it books). Same rules as notify: a ref already recorded writes nothing for that event.
 */
export async function notifyMany(db: Kysely<DB>, events: readonly (NotifyEvent & { ref: string })[]): Promise<void> {
  if (!events.length) return;
  const rows = sql.join(
    events.map((e, n) => {
      const mine = e.pricerId && e.mine ? e.mine : undefined;
      return sql`(${e.tenantId}::integer, ${e.pricerId ?? null}::integer, ${e.kind}::text, ${mine?.title ?? null}::text,
                  ${mine?.body ?? null}::text, ${e.desk.title}::text, ${e.desk.body}::text, ${e.ref}::text,
                  ${webhookBody(e.desk)}::text, ${n}::integer)`;
    }),
  );
  await sql`
    with ev (tenant_id, pricer_id, kind, mine_title, mine_body, desk_title, desk_body, ref, hook, n) as (values ${rows}),
    desk as (
      insert into notifications (tenant_id, audience, pricer_id, kind, title, body, ref)
      select tenant_id, 'trader', null, kind, desk_title, desk_body, ref from ev order by n
      on conflict (audience, ref) where ref is not null do nothing
      returning id, tenant_id, kind, ref
    ),
    mine as (
      insert into notifications (tenant_id, audience, pricer_id, kind, title, body, ref)
      select ev.tenant_id, 'pricer', ev.pricer_id, ev.kind, ev.mine_title, ev.mine_body, ev.ref
        from ev join desk on desk.ref = ev.ref
       where ev.pricer_id is not null and ev.mine_title is not null
       order by ev.n
      on conflict (audience, ref) where ref is not null do nothing
      returning id
    ),
    outbox as (
      insert into webhook_deliveries (tenant_id, notification_id, kind, body)
      select d.tenant_id, d.id, d.kind, ev.hook
        from desk d join ev on ev.ref = d.ref join tenant_webhooks w on w.tenant_id = d.tenant_id
       where d.kind = any (w.kinds) and w.url <> ''
       order by d.id
      returning id
    )
    select 1`.execute(db);
}

/** A customer as the documents name them: the 客户全称, the login while it is empty (v_confirmations). */
const customerName = (alias: 'p') =>
  sql<string>`coalesce(nullif(btrim(${sql.ref(`${alias}.full_name`)}), ''), ${sql.ref(`${alias}.username`)})`;

/** The facts of a contract its notifications name. */
async function contractFacts(db: Kysely<DB>, contractId: number) {
  return db
    .selectFrom('contracts as c')
    .innerJoin('pricer_users as p', 'p.id', 'c.pricer_id')
    .leftJoin('instruments as i', 'i.symbol', 'c.instrument_id')
    .select([
      'c.id',
      'c.tenant_id',
      'c.pricer_id',
      'c.name',
      'c.instrument_id',
      'c.remaining_quantity',
      'c.frozen_quantity',
      'c.fixing_deadline',
      customerName('p').as('pricer'),
      'i.unit',
    ])
    .where('c.id', '=', contractId)
    .executeTakeFirst();
}

/** A contract paused, expired or rolled: its customer and the traders are told. */
export async function notifyContract(
  db: Kysely<DB>,
  kind: 'contract_paused' | 'contract_expired',
  contractId: number,
  ref?: string,
): Promise<boolean> {
  const c = await contractFacts(db, contractId);
  if (!c) return false;
  const said =
    kind === 'contract_paused'
      ? T.contractPaused({ contract: c.name, pricer: c.pricer })
      : T.contractExpired({
          contract: c.name,
          pricer: c.pricer,
          deadline: c.fixing_deadline ?? '',
          remaining: c.remaining_quantity + c.frozen_quantity,
        });
  return notify(db, { tenantId: c.tenant_id, pricerId: c.pricer_id, kind, ...said, ...(ref ? { ref } : {}) });
}

/** A contract rolled to another month (the roll, issue 32, calls this in its transaction). */
export async function notifyContractRolled(
  db: Kysely<DB>,
  r: { contractId: number; from: string; to: string; lots: number; ref?: string },
): Promise<boolean> {
  const c = await contractFacts(db, r.contractId);
  if (!c) return false;
  const said = T.contractRolled({ contract: c.name, pricer: c.pricer, from: r.from, to: r.to, lots: r.lots });
  return notify(db, {
    tenantId: c.tenant_id,
    pricerId: c.pricer_id,
    kind: 'contract_rolled',
    ...said,
    ...(r.ref ? { ref: r.ref } : {}),
  });
}

/** A 条件单 fired (its trigger's transaction) or expired (the expiry's). */
export async function notifyConditional(
  db: Kysely<DB>,
  kind: 'conditional_fired' | 'conditional_expired',
  conditionalId: number,
  lastPrice?: number,
  /** It fired but its fixing was refused for want of margin (said as a fired 条件单 that was cancelled). */
  refused?: string,
): Promise<boolean> {
  const k = await db
    .selectFrom('conditional_orders as k')
    .select(['k.id', 'k.contract_id', 'k.quantity'])
    .where('k.id', '=', conditionalId)
    .executeTakeFirst();
  if (!k) return false;
  const c = await contractFacts(db, k.contract_id);
  if (!c) return false;
  const said =
    refused !== undefined
      ? T.conditionalRefused({
          contract: c.name,
          pricer: c.pricer,
          id: k.id,
          lots: k.quantity,
          lastPrice: lastPrice ?? 0,
          unit: c.unit,
          reason: refused,
        })
      : kind === 'conditional_fired'
        ? T.conditionalFired({
            contract: c.name,
            pricer: c.pricer,
            id: k.id,
            lots: k.quantity,
            lastPrice: lastPrice ?? 0,
            unit: c.unit,
          })
        : T.conditionalExpired({ contract: c.name, pricer: c.pricer, id: k.id, lots: k.quantity });
  return notify(db, { tenantId: c.tenant_id, pricerId: c.pricer_id, kind, ...said, ref: `${kind}:${k.id}` });
}

/** A margin call began or ended (modules/margin records it once). */
export async function notifyMarginCall(
  db: Kysely<DB>,
  m: { tenantId: number; pricerId: number; inCall: boolean; callAmount: number; available: number },
): Promise<boolean> {
  const p = await db
    .selectFrom('pricer_users as p')
    .select(customerName('p').as('name'))
    .where('id', '=', m.pricerId)
    .executeTakeFirst();
  const pricer = p?.name ?? `#${m.pricerId}`;
  const said = m.inCall
    ? T.marginCall({ pricer, callAmount: m.callAmount, available: m.available })
    : T.marginCallEnd({ pricer, available: m.available });
  return notify(db, {
    tenantId: m.tenantId,
    pricerId: m.pricerId,
    kind: m.inCall ? 'margin_call' : 'margin_call_end',
    ...said,
  });
}

/** A fill booked by trading (trading/apply.ts), in the transaction that books it. */
export interface BookedFill {
  tenantId: number;
  orderId: number;
  tradeId: string;
  volume: number;
  price: number;
}

/**
 * The fills of one booking: a `fill` per trade, and `confirmation_pending` for each order the
 * booking finished (its 点价确认单 is now complete and awaits the customer's acknowledgement).
 */
export async function notifyFills(db: Kysely<DB>, fills: readonly BookedFill[]): Promise<void> {
  if (!fills.length) return;
  const ids = [...new Set(fills.map((f) => f.orderId))];
  const orders = await db
    .selectFrom('orders as o')
    .innerJoin('contracts as c', 'c.id', 'o.contract_id')
    .innerJoin('pricer_users as p', 'p.id', 'o.pricer_id')
    .leftJoin('instruments as i', 'i.symbol', 'o.instrument_id')
    .select([
      'o.id',
      'o.tenant_id',
      'o.pricer_id',
      'o.instrument_id',
      'o.direction',
      'o.status',
      'o.volume_traded',
      'o.trade_price',
      'o.basis',
      'c.name as contract',
      customerName('p').as('pricer'),
      'i.unit',
      'i.volume_multiple',
    ])
    .where('o.id', 'in', ids)
    .execute();
  const byId = new Map(orders.map((o) => [Number(o.id), o]));
  const events: (NotifyEvent & { ref: string })[] = [];
  for (const f of fills) {
    const o = byId.get(f.orderId);
    if (!o || o.tenant_id !== f.tenantId) continue;
    const multiplier = Number(o.volume_multiple ?? 1);
    const said = T.fill({
      contract: o.contract,
      pricer: o.pricer,
      instrument: o.instrument_id,
      direction: o.direction,
      volume: f.volume,
      price: f.price,
      basis: Number(o.basis),
      multiplier,
      unit: o.unit ?? null,
    });
    events.push({
      tenantId: o.tenant_id,
      pricerId: o.pricer_id,
      kind: 'fill',
      ...said,
      ref: `fill:${o.id}:${f.tradeId}`,
    });
  }
  // After the fills: the confirmation is the newer notification.
  for (const o of orders) {
    if (o.status !== 'FINISHED') continue;
    const said = T.confirmationPending({
      contract: o.contract,
      pricer: o.pricer,
      orderId: Number(o.id),
      lots: Number(o.volume_traded),
      price: Number(o.trade_price),
      basis: Number(o.basis),
      multiplier: Number(o.volume_multiple ?? 1),
      unit: o.unit ?? null,
    });
    events.push({
      tenantId: o.tenant_id,
      pricerId: o.pricer_id,
      kind: 'confirmation_pending',
      ...said,
      ref: `confirmation:${o.id}`,
    });
  }
  await notifyMany(db, events);
}
