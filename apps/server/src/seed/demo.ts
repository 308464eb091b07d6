import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords';
import type { DB } from '../db/schema';

/** The embedded provider's demo trader (`trader` / `trader123`) has this subject. */
export const DEMO_TRADER_SUB = '6f1c3d2e-0000-4000-8000-000000000001';
export const DEMO_COMPANY = '演示贸易有限公司';
export const DEMO_PRICERS = ['pricer1', 'pricer2'] as const;
export const DEMO_PRICER_PASSWORD = 'pricer123';

/** Which products the demo contracts use, by pricer. */
const DEMO_CONTRACTS: Record<
  (typeof DEMO_PRICERS)[number],
  { product: string; direction: 'BUY' | 'SELL'; lots: number }[]
> = {
  pricer1: [
    { product: '铜', direction: 'BUY', lots: 100 },
    { product: '豆粕', direction: 'SELL', lots: 300 },
    { product: '螺纹钢', direction: 'BUY', lots: 200 },
  ],
  pricer2: [
    { product: '白糖', direction: 'BUY', lots: 120 },
    { product: '铝', direction: 'SELL', lots: 80 },
  ],
};

/**
 * Tenant 1 with the demo trader, two pricers and active contracts on the nearest listed
 * futures. Idempotent: does nothing once the demo tenant exists.
 */
export async function seedDemo(db: Kysely<DB>): Promise<boolean> {
  const existing = await db
    .selectFrom('tenants')
    .select('id')
    .where('owner_sub', '=', DEMO_TRADER_SUB)
    .executeTakeFirst();
  if (existing) return false;
  const hash = await hashPassword(DEMO_PRICER_PASSWORD);
  await db.transaction().execute(async (tx) => {
    const taken = await tx.selectFrom('tenants').select('id').where('id', '=', 1).executeTakeFirst();
    const tenant = await tx
      .insertInto('tenants')
      .values({ ...(taken ? {} : { id: 1 }), owner_sub: DEMO_TRADER_SUB, company_name: DEMO_COMPANY, is_sim: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`select setval('tenants_id_seq', (select max(id) from tenants))`.execute(tx);
    for (const username of DEMO_PRICERS) {
      const pricer = await tx
        .insertInto('pricer_users')
        .values({ tenant_id: tenant.id, username, password_hash: hash, phone: null, status: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const c of DEMO_CONTRACTS[username]) {
        const instrument = await tx
          .selectFrom('instruments')
          .select(['symbol', 'name', 'product_name'])
          .where('product_name', '=', c.product)
          .where('expired', '=', false)
          .orderBy('symbol')
          .offset(1) // the next-but-one listed month: liquid and not about to expire
          .limit(1)
          .executeTakeFirst();
        if (!instrument) continue;
        await tx
          .insertInto('contracts')
          .values({
            tenant_id: tenant.id,
            name: `${instrument.name}-${username}`,
            pricer_id: pricer.id,
            product_name: instrument.product_name,
            instrument_id: instrument.symbol,
            direction: c.direction,
            total_quantity: c.lots,
            remaining_quantity: c.lots,
            status: 'active',
          })
          .execute();
      }
    }
  });
  return true;
}
