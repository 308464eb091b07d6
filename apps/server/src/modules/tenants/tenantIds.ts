import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { requireTenantId } from './tenants';

/**
 * requireTenantId, remembered: every trader view call needs the caller's tenant id, and looking it up was a
 * PostgreSQL round trip per request (docs/performance.md). A tenant, once created for its owner, keeps its id
 * and is never deleted, so a found id stays right; a missing one (403, no profile yet) is never remembered, so
 * the first settings save is seen at once. Bounded; per process.
 */
export function rememberedTenantIds(db: Kysely<DB>, maxEntries = 10_000) {
  const known = new Map<string, number>();
  return async (sub: string): Promise<number> => {
    const hit = known.get(sub);
    if (hit !== undefined) return hit;
    const id = await requireTenantId(db, sub);
    if (known.size >= maxEntries) known.delete(known.keys().next().value as string);
    known.set(sub, id);
    return id;
  };
}
