import type { ApprovalAction } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';

/**
 * What a held call acts on (docs/roles.md): its key, a name people read, its state (a request whose state
 * changed since it was made is stale) and the figures before and after the call.
 */
export interface Subject {
  key: string;
  label: string;
  state: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

type Body = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

async function pricer(db: Kysely<DB>, tenantId: number, id: unknown) {
  if (typeof id !== 'number') return undefined;
  return db
    .selectFrom('pricer_users as u')
    .leftJoin('pricer_accounts as a', 'a.pricer_id', 'u.id')
    .select(['u.id', 'u.username', 'u.full_name', 'u.status', 'a.balance', 'a.credit_line'])
    .where('u.id', '=', id)
    .where('u.tenant_id', '=', tenantId)
    .executeTakeFirst();
}
const nameOf = (p: { username: string; full_name: string | null }) => p.full_name || p.username;

/** The subject of `action`'s `body`; undefined when it is not the company's (the call itself then answers 404). */
export async function subjectOf(
  db: Kysely<DB>,
  tenantId: number,
  action: ApprovalAction,
  body: Body,
): Promise<Subject | undefined> {
  if (action === 'settle-lots') {
    if (typeof body.contract_id !== 'number') return undefined;
    const c = await db
      .selectFrom('contracts')
      .select(['id', 'name', 'status', 'executed_quantity', 'settled_quantity'])
      .where('id', '=', body.contract_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!c) return undefined;
    return {
      key: `contract:${c.id}`,
      label: c.name || `合同 ${c.id}`,
      state: JSON.stringify([c.status, num(c.settled_quantity)]),
      before: { settled_quantity: num(c.settled_quantity) },
      after: { settled_quantity: num(c.settled_quantity) + num(body.quantity) },
    };
  }
  if (action === 'roll-contract') return rollSubject(db, tenantId, body);
  if (action === 'settle-fee') return feeSubject(db, tenantId, body);
  const id = action === 'unlock-pricer' || action === 'update-pricer-status' ? body.user_id : body.pricer_id;
  const p = await pricer(db, tenantId, id);
  if (!p) return undefined;
  const base = { key: `pricer:${p.id}`, label: nameOf(p) };
  switch (action) {
    case 'record-funds': {
      const delta = body.kind === 'withdraw' ? -num(body.amount) : num(body.amount);
      // A deposit stays right whatever else moved the balance; a withdrawal or adjustment was judged against it.
      const state = body.kind === 'deposit' ? [p.status] : [p.status, num(p.balance)];
      return {
        ...base,
        state: JSON.stringify(state),
        before: { balance: num(p.balance) },
        after: { balance: Math.round((num(p.balance) + delta) * 100) / 100 },
      };
    }
    case 'set-credit-line':
      return {
        ...base,
        state: JSON.stringify([num(p.credit_line)]),
        before: { credit_line: num(p.credit_line) },
        after: { credit_line: num(body.credit_line) },
      };
    case 'update-pricer-status':
      return {
        ...base,
        state: JSON.stringify([p.status]),
        before: { status: p.status },
        after: { status: body.new_status },
      };
    case 'unlock-pricer':
      return { ...base, state: JSON.stringify([p.status]), before: { locked: true }, after: { locked: false } };
    case 'create-contract':
      return {
        ...base,
        state: JSON.stringify([p.status]),
        before: null,
        after: {
          total_quantity: num(body.total_quantity),
          instrument_id: body.instrument_id,
          direction: body.direction,
        },
      };
  }
  return undefined;
}

/**
 * The trader's direct 转月: stale when the contract's status, basis, deadline or rolled-out lots changed
 * (another roll, an extension, a pause); lots fixed since are the roll's own rule at approval.
 */
async function rollSubject(db: Kysely<DB>, tenantId: number, body: Body): Promise<Subject | undefined> {
  if (typeof body.contract_id !== 'number') return undefined;
  const c = await db
    .selectFrom('contracts')
    .select(['id', 'name', 'status', 'basis', 'fixing_deadline', 'remaining_quantity', 'rolled_out_quantity'])
    .where('id', '=', body.contract_id)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!c) return undefined;
  const to = await db
    .selectFrom('instruments')
    .select('unit')
    .where('symbol', '=', String(body.to_instrument_id))
    .executeTakeFirst();
  return {
    key: `contract:${c.id}`,
    label: c.name || `合同 ${c.id}`,
    state: JSON.stringify([c.status, num(c.basis), String(c.fixing_deadline), c.rolled_out_quantity]),
    before: { remaining_quantity: c.remaining_quantity },
    after: {
      remaining_quantity: c.remaining_quantity - num(body.quantity),
      to_instrument_id: body.to_instrument_id,
      spread: `${num(body.spread)} 元/${to?.unit ?? '单位'}`,
    },
  };
}

/** A fee waiver: stale when the fee was settled meanwhile. */
async function feeSubject(db: Kysely<DB>, tenantId: number, body: Body): Promise<Subject | undefined> {
  if (typeof body.fee_id !== 'number') return undefined;
  const f = await db
    .selectFrom('fee_receivables as f')
    .innerJoin('contracts as c', 'c.id', 'f.contract_id')
    .select(['f.id', 'f.status', 'f.amount', 'c.name'])
    .where('f.id', '=', body.fee_id)
    .where('f.tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!f) return undefined;
  return {
    key: `fee:${f.id}`,
    label: `${f.name} · 费用 #${f.id}`,
    state: JSON.stringify([f.status]),
    before: { fee_open: num(f.amount) },
    after: { fee_open: 0 },
  };
}
