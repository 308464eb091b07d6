import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/schema';
import { listExchanges, listFutures, listProducts, quantityUnit } from '../market/catalogue';

/**
 * The products and instruments views read the catalogue from the database. Each start upserts
 * the futures listed today and marks the ones no longer listed as expired (contracts may still
 * refer to them).
 */
export async function seedCatalogue(db: Kysely<DB>, asOf = new Date()) {
  const products = listExchanges().flatMap((ex) => listProducts(ex));
  const futures = products.flatMap((p) => listFutures(p.exchange, p.id, asOf).map((f) => ({ f, p })));
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('products')
      .values(products.map((p) => ({ exchange_id: p.exchange, product_id: p.id, name: p.name })))
      .onConflict((oc) =>
        oc.columns(['exchange_id', 'product_id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })),
      )
      .execute();
    await tx.updateTable('instruments').set({ expired: true }).execute();
    await tx
      .insertInto('instruments')
      .values(
        futures.map(({ f, p }) => ({
          symbol: f.symbol,
          name: f.name,
          exchange_id: f.exchange,
          product_id: p.id,
          product_name: p.name,
          price_tick: f.tick,
          volume_multiple: f.multiplier,
          unit: quantityUnit(p.unit),
          expired: false,
        })),
      )
      .onConflict((oc) =>
        oc.column('symbol').doUpdateSet({
          name: sql`excluded.name`,
          price_tick: sql`excluded.price_tick`,
          volume_multiple: sql`excluded.volume_multiple`,
          unit: sql`excluded.unit`,
          expired: false,
        }),
      )
      .execute();
  });
  return { products: products.length, futures: futures.length };
}
