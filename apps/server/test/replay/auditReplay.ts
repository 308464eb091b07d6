/**
 * The books recomputed from the audit log alone (issue 45 item 4, docs/ha.md): reads ONLY audit_log rows —
 * no contract, order, ledger or 条件单 table — and replays them in id order into every contract's lots, every
 * customer account's ledger balance and every 条件单's state. The chaos run compares the result with the
 * database's books (test/chaos.ts).
 *
 *   npx tsx test/replay/auditReplay.ts DATABASE_URL TENANT_ID   prints the replayed books as JSON
 */
import pg from 'pg';

export interface AuditRow {
  id: number;
  action: string;
  payload: Record<string, unknown>;
}

export interface ReplayedContract {
  total: number;
  remaining: number;
  frozen: number;
  executed: number;
  rolled_out: number;
}

export interface Replayed {
  contracts: Record<number, ReplayedContract>;
  /** Ledger balance per customer (pricer id), 元. */
  accounts: Record<number, number>;
  conditionals: Record<number, 'WAITING' | 'TRIGGERED' | 'CANCELLED' | 'EXPIRED'>;
  /** Rows the replay read, per action (those that change no book counted too). */
  actions: Record<string, number>;
  /** Rows that named something the replay had not seen created (a gap in the log). */
  orphans: string[];
}

/** Actions that change none of the replayed books (logins, settings, notices, margin-call flags …). */
const NO_BOOKS = new Set([
  'pricer-login',
  'pricer-login-failed',
  'accept-agreement',
  'create-pricer-user',
  'trader-profile',
  'margin-call',
  'margin-call-end',
  'set-margin-settings',
  'set-credit-line',
  'update-contract-status',
  'fill-after-stop',
  'acknowledge-confirmation',
]);

const num = (v: unknown) => Number(v ?? 0);
const cents = (v: number) => Math.round(v * 100);

export function replay(rows: AuditRow[]): Replayed {
  const contracts: Record<number, ReplayedContract> = {};
  const balances: Record<number, number> = {}; // in fen: exact sums
  const conditionals: Replayed['conditionals'] = {};
  const conditionalLots = new Map<number, { contract: number; lots: number }>();
  const actions: Record<string, number> = {};
  const orphans: string[] = [];
  const contract = (id: unknown, row: AuditRow) => {
    const c = contracts[num(id)];
    if (!c) orphans.push(`#${row.id} ${row.action}: contract ${String(id)}`);
    return c ?? { total: 0, remaining: 0, frozen: 0, executed: 0, rolled_out: 0 };
  };
  const freeze = (c: ReplayedContract, lots: number) => {
    c.remaining -= lots;
    c.frozen += lots;
  };
  const release = (c: ReplayedContract, lots: number) => {
    c.frozen -= lots;
    c.remaining += lots;
  };
  const endConditional = (row: AuditRow, to: 'CANCELLED' | 'EXPIRED') => {
    const id = num(row.payload.conditional_order_id);
    const held = conditionalLots.get(id);
    if (!held || conditionals[id] !== 'WAITING') return void orphans.push(`#${row.id} ${row.action}: 条件单 ${id}`);
    conditionals[id] = to;
    release(contract(held.contract, row), held.lots);
  };
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const p = row.payload;
    actions[row.action] = (actions[row.action] ?? 0) + 1;
    switch (row.action) {
      case 'create-contract':
        contracts[num(p.id)] = {
          total: num(p.total_quantity),
          remaining: num(p.total_quantity),
          frozen: 0,
          executed: 0,
          rolled_out: 0,
        };
        break;
      case 'roll-contract': {
        const from = contract(p.contract_id, row);
        from.remaining -= num(p.quantity);
        from.rolled_out += num(p.quantity);
        contracts[num(p.new_contract_id)] = {
          total: num(p.quantity),
          remaining: num(p.quantity),
          frozen: 0,
          executed: 0,
          rolled_out: 0,
        };
        break;
      }
      case 'submit-order':
        freeze(contract(p.contract_id, row), num(p.quantity));
        break;
      case 'average-fixing':
        freeze(contract(p.contract_id, row), num(p.lots));
        break;
      case 'create-conditional-order': {
        const id = num(p.conditional_order_id);
        conditionals[id] = 'WAITING';
        conditionalLots.set(id, { contract: num(p.contract_id), lots: num(p.quantity) });
        freeze(contract(p.contract_id, row), num(p.quantity));
        break;
      }
      case 'trigger-conditional-order': {
        // Its frozen lots become the order's: the lots stay frozen.
        const id = num(p.conditional_order_id);
        if (conditionals[id] !== 'WAITING') orphans.push(`#${row.id} ${row.action}: 条件单 ${id}`);
        conditionals[id] = 'TRIGGERED';
        break;
      }
      case 'cancel-conditional-order':
        endConditional(row, 'CANCELLED');
        break;
      case 'expire-conditional-order':
        endConditional(row, 'EXPIRED');
        break;
      case 'book-fill': {
        const c = contract(p.contract_id, row);
        const fromRemaining = num(p.from_remaining);
        c.remaining -= fromRemaining;
        c.frozen -= num(p.volume) - fromRemaining;
        c.executed += num(p.volume);
        break;
      }
      case 'order-ended':
        release(contract(p.contract_id, row), num(p.released));
        break;
      case 'cancel-order':
        // A PENDING order cancelled here names the lots it gave back; an ALIVE one's come with order-ended.
        if (p.released !== undefined) {
          // The order's contract is in its submit row: found through the order id.
          const submit = rows.find((r) => r.action === 'submit-order' && num(r.payload.order_id) === num(p.order_id));
          const trigger = rows.find(
            (r) =>
              (r.action === 'trigger-conditional-order' || r.action === 'average-fixing') &&
              num(r.payload.order_id) === num(p.order_id),
          );
          const contractId =
            submit?.payload.contract_id ??
            (trigger?.action === 'average-fixing'
              ? trigger.payload.contract_id
              : conditionalLots.get(num(trigger?.payload.conditional_order_id))?.contract);
          release(contract(contractId, row), num(p.released));
        }
        break;
      case 'record-funds':
        balances[num(p.pricer_id)] = (balances[num(p.pricer_id)] ?? 0) + cents(num(p.amount));
        break;
      case 'settle-fee':
        if (p.ledger_entry_id !== undefined)
          balances[num(p.pricer_id)] = (balances[num(p.pricer_id)] ?? 0) - cents(num(p.amount));
        break;
      default:
        if (!NO_BOOKS.has(row.action)) orphans.push(`#${row.id} ${row.action}: not replayed`);
    }
  }
  const accounts = Object.fromEntries(Object.entries(balances).map(([k, v]) => [k, v / 100]));
  return { contracts, accounts, conditionals, actions, orphans };
}

/** The tenant's audit rows, and nothing else (on the caller's connection: its snapshot). */
export async function readAudit(db: pg.ClientBase, tenantId: number): Promise<AuditRow[]> {
  const { rows } = await db.query<{ id: string; action: string; payload: Record<string, unknown> }>(
    'select id, action, payload from audit_log where tenant_id = $1 order by id',
    [tenantId],
  );
  return rows.map((r) => ({ id: Number(r.id), action: r.action, payload: r.payload }));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const [url, tenant] = process.argv.slice(2);
  if (!url || !tenant) {
    console.error('usage: tsx test/replay/auditReplay.ts DATABASE_URL TENANT_ID');
    process.exit(2);
  }
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    console.log(JSON.stringify(replay(await readAudit(db, Number(tenant))), null, 2));
  } finally {
    await db.end();
  }
}
