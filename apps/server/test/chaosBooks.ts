import type pg from 'pg';
import { readAudit, replay, type Replayed } from './replay/auditReplay';

/**
 * The database's books beside the replay of the audit log (test/replay/auditReplay.ts), read in ONE
 * snapshot (a repeatable-read transaction) once the orders have settled: every contract's lots, every
 * customer's ledger balance (the account row and the sum of its ledger rows), every 条件单's state.
 */
export interface BooksComparison {
  equal: boolean;
  contracts: number;
  accounts: number;
  conditionals: number;
  /** Orders still PENDING or ALIVE after the settling wait. */
  pending: number;
  differences: string[];
  orphans: string[];
  actions: Replayed['actions'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function compareBooks(pool: pg.Pool, tenant: number): Promise<BooksComparison> {
  let pending = 0;
  for (let i = 0; i < 600; i++) {
    const r = await pool
      .query<{ n: number }>(
        `select count(*)::int as n from orders where tenant_id = $1 and status in ('PENDING', 'ALIVE')`,
        [tenant],
      )
      .catch(() => undefined);
    pending = r?.rows[0]?.n ?? -1;
    if (pending === 0) break;
    await sleep(500);
  }
  const c = await pool.connect();
  try {
    await c.query('begin isolation level repeatable read read only');
    const contracts = (
      await c.query<Record<string, number>>(
        `select id, total_quantity as total, remaining_quantity as remaining, frozen_quantity as frozen,
                executed_quantity as executed, rolled_out_quantity as rolled_out
           from contracts where tenant_id = $1 order by id`,
        [tenant],
      )
    ).rows;
    const accounts = (
      await c.query<{ pricer_id: number; balance: string; ledger: string | null }>(
        `select a.pricer_id, a.balance,
                (select sum(amount) from funds_ledger l where l.pricer_id = a.pricer_id) as ledger
           from pricer_accounts a where a.tenant_id = $1 order by 1`,
        [tenant],
      )
    ).rows;
    const conditionals = (
      await c.query<{ id: number; status: string }>(
        'select id, status from conditional_orders where tenant_id = $1 order by id',
        [tenant],
      )
    ).rows;
    const replayed = replay(await readAudit(c, tenant));
    await c.query('commit');

    const differences: string[] = [];
    for (const row of contracts) {
      const r = replayed.contracts[Number(row.id)];
      for (const k of ['total', 'remaining', 'frozen', 'executed', 'rolled_out'] as const)
        if (Number(row[k]) !== r?.[k]) differences.push(`contract ${row.id} ${k}: books ${row[k]}, replay ${r?.[k]}`);
    }
    for (const id of Object.keys(replayed.contracts))
      if (!contracts.some((row) => Number(row.id) === Number(id))) differences.push(`contract ${id}: replay only`);
    for (const a of accounts) {
      const r = replayed.accounts[Number(a.pricer_id)] ?? 0;
      if (Number(a.balance) !== r) differences.push(`account ${a.pricer_id}: balance ${a.balance}, replay ${r}`);
      if (Number(a.ledger ?? 0) !== r) differences.push(`account ${a.pricer_id}: ledger ${a.ledger}, replay ${r}`);
    }
    for (const k of conditionals) {
      const r = replayed.conditionals[Number(k.id)];
      if (k.status !== r) differences.push(`条件单 ${k.id}: books ${k.status}, replay ${r}`);
    }
    if (Object.keys(replayed.conditionals).length !== conditionals.length)
      differences.push(`条件单: books ${conditionals.length}, replay ${Object.keys(replayed.conditionals).length}`);
    return {
      equal: differences.length === 0 && replayed.orphans.length === 0,
      contracts: contracts.length,
      accounts: accounts.length,
      conditionals: conditionals.length,
      pending,
      differences,
      orphans: replayed.orphans,
      actions: replayed.actions,
    };
  } finally {
    c.release();
  }
}
