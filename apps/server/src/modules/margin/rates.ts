import type { EffectiveMarginRate, marginSettings } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { audit } from '../audit/audit';

/**
 * Which margin rate a new contract gets (issue 41, docs/margin.md "Which rate a contract gets"): its
 * own when the trader gives one (0 included), else the customer's, else the company's for the product,
 * else the company's default. Resolved once, at creation, into contracts.margin_rate: the margin check
 * (margin_check, v_margin_sums) reads the stored rate and never resolves anything.
 */

const n = (v: unknown) => Number(v ?? 0);

export async function resolveMarginRate(
  db: Kysely<DB>,
  tenantId: number,
  pricerId: number,
  productName: string,
): Promise<EffectiveMarginRate> {
  const { rows } = await sql<{ customer: number | null; product: number | null; company: number | null }>`
    select u.margin_rate as customer, pm.margin_rate as product, t.default_margin_rate as company
      from tenants t
      left join pricer_users u on u.id = ${pricerId}::integer and u.tenant_id = t.id
      left join product_margin_rates pm on pm.tenant_id = t.id and pm.product_name = ${productName}
     where t.id = ${tenantId}::integer`.execute(db);
  const r = rows[0];
  if (r?.customer != null) return { margin_rate: n(r.customer), source: 'customer' };
  if (r?.product != null) return { margin_rate: n(r.product), source: 'product' };
  return { margin_rate: n(r?.company), source: 'company' };
}

/** The trader's view of it: the customer must be the company's. */
export async function effectiveMarginRate(db: Kysely<DB>, tenantId: number, pricerId: number, productName: string) {
  const found = await db
    .selectFrom('pricer_users')
    .select('id')
    .where('id', '=', pricerId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!found) throw notFound('客户不存在');
  return resolveMarginRate(db, tenantId, pricerId, productName);
}

export async function readRateSettings(db: Kysely<DB>, tenantId: number) {
  const [t, products] = await Promise.all([
    db.selectFrom('tenants').select('default_margin_rate').where('id', '=', tenantId).executeTakeFirst(),
    db
      .selectFrom('product_margin_rates')
      .select(['product_name', 'margin_rate'])
      .where('tenant_id', '=', tenantId)
      .orderBy('product_name')
      .execute(),
  ]);
  return {
    default_margin_rate: n(t?.default_margin_rate),
    product_rates: products.map((p) => ({ product_name: p.product_name, margin_rate: n(p.margin_rate) })),
  };
}

/**
 * The company's default and, when given, its per-product rates (the list replaces the stored one; a
 * product named twice keeps the last). Answered and audited as stored (numeric(6, 4)).
 */
export async function setRateSettings(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof marginSettings>,
) {
  return db.transaction().execute(async (tx) => {
    const before = await readRateSettings(tx, tenantId);
    await tx
      .updateTable('tenants')
      .set({ default_margin_rate: input.default_margin_rate, updated_at: sql<Date>`now()` })
      .where('id', '=', tenantId)
      .execute();
    if (input.product_rates) {
      const byName = new Map(input.product_rates.map((p) => [p.product_name, p.margin_rate]));
      await tx.deleteFrom('product_margin_rates').where('tenant_id', '=', tenantId).execute();
      if (byName.size > 0) {
        await tx
          .insertInto('product_margin_rates')
          .values(
            [...byName].map(([product_name, margin_rate]) => ({ tenant_id: tenantId, product_name, margin_rate })),
          )
          .execute();
      }
    }
    const after = await readRateSettings(tx, tenantId);
    await audit(tx, {
      tenantId,
      actor,
      action: 'set-margin-settings',
      payload: {
        default_margin_rate: after.default_margin_rate,
        from: before.default_margin_rate,
        ...(input.product_rates
          ? { product_rates: after.product_rates, product_rates_from: before.product_rates }
          : {}),
      },
    });
    return after;
  });
}
