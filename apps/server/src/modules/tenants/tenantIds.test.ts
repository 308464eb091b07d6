import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { openMigratedDatabase } from '../../../test/db';
import { rememberedTenantIds } from './tenantIds';

let db: Database;
beforeAll(async () => {
  db = await openMigratedDatabase();
});
afterAll(() => db.destroy());

const addTenant = async (sub: string) =>
  (
    await db
      .insertInto('tenants')
      .values({ owner_sub: sub, company_name: `公司 ${sub}`, is_sim: true })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

describe('rememberedTenantIds', () => {
  it('answers the owner’s tenant, and a 403 until the profile exists (never remembering the miss)', async () => {
    const sub = `owner-${Math.random().toString(36).slice(2)}`;
    const tenantId = rememberedTenantIds(db, 2);
    await expect(tenantId(sub)).rejects.toMatchObject({ kind: 'forbidden' });
    const id = await addTenant(sub);
    expect(await tenantId(sub)).toBe(id);
    const other = `${sub}-b`;
    const otherId = await addTenant(other);
    expect(await tenantId(other)).toBe(otherId);
    expect(await tenantId(sub)).toBe(id);
  });
});
