import type { rollAutoPricing, setRollAutoPricingInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { DomainError } from '../../platform/errors';
import type { QuoteOf } from '../../platform/quote';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { round2 } from '../margin/arithmetic';
import { priceRoll } from './applications';
import { rollQuote } from './views';

type Rule = z.output<typeof rollAutoPricing>;

/** Off: every application waits for the trader (docs/roles.md says why). */
export const ROLL_AUTO_OFF: Rule = { enabled: false, max_spread_deviation: 0, fee_per_unit: 0, valid_seconds: 60 };

export async function readRollAutoPricing(db: Kysely<DB>, tenantId: number): Promise<Rule> {
  const row = await db.selectFrom('tenants').select('roll_auto_pricing').where('id', '=', tenantId).executeTakeFirst();
  const stored = row?.roll_auto_pricing;
  if (!stored || typeof stored !== 'object') return ROLL_AUTO_OFF;
  return { ...ROLL_AUTO_OFF, ...(stored as Partial<Rule>) };
}

/** The company's rule, changed and audited (set-roll-auto-pricing, 管理员). */
export async function setRollAutoPricing(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof setRollAutoPricingInput>,
): Promise<Rule> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('tenants')
      .set({ roll_auto_pricing: JSON.stringify(input) })
      .where('id', '=', tenantId)
      .execute();
    await audit(tx, { tenantId, actor, action: 'set-roll-auto-pricing', payload: { ...input } });
  });
  return readRollAutoPricing(db, tenantId);
}

/**
 * The auto rule with a spread band (docs/roles.md), run after a customer applies: the offer is the live
 * 月差 on the side the company rolls its hedge at — a buyer's contract from.ask − to.bid, a seller's
 * from.bid − to.ask — when every bid, ask and last of both futures is known and that side is within
 * max_spread_deviation of the last prices' 月差. Otherwise, or when the roll's own rules refuse the offer,
 * the application stays 待报价 for the trader. Priced by 系统 through priceRoll (audited, both told).
 */
export async function autoPriceRoll(
  db: Kysely<DB>,
  tenantId: number,
  application: { id: number; contract_id: number; to_instrument_id: string; direction: string },
  quoteOf: QuoteOf | undefined,
  now = new Date(),
): Promise<boolean> {
  const rule = await readRollAutoPricing(db, tenantId);
  if (!rule.enabled || !quoteOf) return false;
  const q = await rollQuote(
    db,
    { tenantId },
    { contract_id: application.contract_id, to_instrument_id: application.to_instrument_id },
    quoteOf,
  );
  const { from, to } = q;
  if (from.last === null || to.last === null || q.spread_low === null || q.spread_high === null) return false;
  const spread = application.direction === 'SELL' ? q.spread_low : q.spread_high;
  const reference = round2(from.last - to.last);
  if (Math.abs(spread - reference) > rule.max_spread_deviation) return false;
  try {
    await priceRoll(
      db,
      tenantId,
      SYSTEM_ACTOR,
      {
        application_id: application.id,
        spread,
        fee_per_unit: rule.fee_per_unit,
        valid_seconds: rule.valid_seconds,
      },
      now,
      { reference_spread: reference, max_spread_deviation: rule.max_spread_deviation },
    );
    return true;
  } catch (e) {
    if (e instanceof DomainError) return false;
    throw e;
  }
}
