import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../platform/db/database';

/** Models oidc-provider never needs to persist here: clients are static (no dynamic registration). */
const NOT_STORED = new Set(['Client']);

const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * The oidc-provider storage adapter over Kysely: one row per (model, id) in `oidc_payloads`.
 * Expired rows are invisible at once and deleted lazily (at most every 10 minutes, on a write).
 */
export class KyselyAdapter implements Adapter {
  private static lastSweep = new WeakMap<Database, number>();

  constructor(
    private readonly db: Database,
    private readonly type: string,
  ) {}

  /** A factory for the `adapter` option of the provider's configuration. */
  static factory(db: Database) {
    return (name: string) => new KyselyAdapter(db, name);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (NOT_STORED.has(this.type)) return;
    await this.sweep();
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const values = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto('oidc_payloads')
      .values({ id, type: this.type, ...values })
      .onConflict((oc) => oc.columns(['type', 'id']).doUpdateSet(values))
      .execute();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (NOT_STORED.has(this.type)) return undefined;
    return this.findBy('id', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy('uid', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('oidc_payloads')
      .set({ consumed_at: new Date() })
      .where('type', '=', this.type)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('type', '=', this.type).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('type', '=', this.type).where('grant_id', '=', grantId).execute();
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at'])
      .where('type', '=', this.type)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as AdapterPayload) : row.payload;
    if (row.consumed_at) payload.consumed = Math.floor(new Date(row.consumed_at).getTime() / 1000);
    return payload;
  }

  /** Deletes what has expired, at most once per interval per database (and process). */
  private async sweep() {
    const last = KyselyAdapter.lastSweep.get(this.db) ?? 0;
    if (Date.now() - last < SWEEP_INTERVAL_MS) return;
    KyselyAdapter.lastSweep.set(this.db, Date.now());
    await this.db.deleteFrom('oidc_payloads').where('expires_at', '<', new Date()).execute();
  }
}
