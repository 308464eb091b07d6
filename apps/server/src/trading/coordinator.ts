import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { GatewayStatus } from './gateway';
import { silentLogger, type Logger } from '../platform/logger';

/** What one server instance tells the others about a tenant. */
export type CoordinatorMessage =
  | { kind: 'created'; tenantId: number; orderId: number }
  | { kind: 'cancel'; tenantId: number; orderId: number }
  /** A conditional order was created or ended: the owner's engine reads it again. */
  | { kind: 'condition'; tenantId: number; conditionId: number }
  | { kind: 'status'; tenantId: number; status: GatewayStatus }
  /** An instance (re)joined and has missed the statuses: owners publish theirs again. */
  | { kind: 'hello' };

/**
 * Past one machine (ARCHITECTURE §8): server instances share one PostgreSQL, and each tenant's
 * trading gateway runs in exactly one of them at a time — the one that holds the tenant's lock.
 * The others forward order events to it and show the status it publishes.
 */
export interface Coordinator {
  /** Whether other instances may exist (false: this process is the only one). */
  readonly shared: boolean;
  /** Takes the tenant for this instance unless another instance holds it. Idempotent. */
  acquire(tenantId: number): Promise<boolean>;
  /** Tells the other instances (best effort: the owner's sweep finds the work anyway). */
  publish(message: CoordinatorMessage): void;
  onMessage(listener: (message: CoordinatorMessage) => void): void;
  /** Every lock was lost at once (the lock connection broke): stop every gateway now. */
  onLost(listener: () => void): void;
  /** Releases every tenant. */
  close(): Promise<void>;
}

/** One process on its own database (embedded PGlite): it owns every tenant. */
export const soleCoordinator: Coordinator = {
  shared: false,
  acquire: async () => true,
  publish() {},
  onMessage() {},
  onLost() {},
  close: async () => {},
};

const CHANNEL = 'pfp_trading';
/** First key of the two-key advisory locks: the tenant id is the second. */
const LOCK_SPACE = 0x7066_7001;

/**
 * Coordination through PostgreSQL on one dedicated connection: session-level advisory locks per
 * tenant (they go with the connection, so when an instance dies its tenants are free for the
 * others' next attempt) and LISTEN/NOTIFY for messages. If the connection breaks, every tenant
 * is given up at once and taken again on the next attempts.
 */
export function pgCoordinator(
  databaseUrl: string,
  logger: Logger = silentLogger,
): Coordinator & { readonly instance: string } {
  const instance = randomUUID();
  const held = new Set<number>();
  const messageListeners: ((m: CoordinatorMessage) => void)[] = [];
  const lostListeners: (() => void)[] = [];
  let current: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  const drop = (c: pg.Client) => {
    c.removeAllListeners();
    c.on('error', () => {}); // a late error of the dead connection
    void c.end().catch(() => {});
  };

  function lost(c: pg.Client, err?: unknown) {
    if (c !== current) return;
    current = undefined;
    drop(c);
    if (closed) return;
    logger.error({ err }, 'trading: the coordination connection was lost; every tenant is given up');
    held.clear();
    for (const l of lostListeners) l();
  }

  function connection(): Promise<pg.Client> {
    if (closed) return Promise.reject(new Error('coordinator closed'));
    if (current) return Promise.resolve(current);
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: databaseUrl, application_name: `pfp-trading ${instance}` });
      c.on('error', (err) => lost(c, err));
      c.on('end', () => lost(c));
      c.on('notification', (n) => {
        if (n.channel !== CHANNEL || !n.payload) return;
        try {
          const { from, ...message } = JSON.parse(n.payload) as CoordinatorMessage & { from: string };
          if (from !== instance) for (const l of messageListeners) l(message as CoordinatorMessage);
        } catch (err) {
          logger.warn({ err }, 'trading: unreadable coordination message ignored');
        }
      });
      try {
        await c.connect();
        await c.query(`listen ${CHANNEL}`);
      } catch (err) {
        drop(c);
        throw err;
      }
      if (closed) {
        drop(c);
        throw new Error('coordinator closed');
      }
      current = c;
      void c
        .query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ kind: 'hello', from: instance })])
        .catch(() => {});
      return c;
    })().finally(() => (connecting = undefined));
    return connecting;
  }

  return {
    /** This instance's id; its connection's application_name is `pfp-trading <instance>`. */
    instance,
    shared: true,
    async acquire(tenantId) {
      if (held.has(tenantId)) return true;
      const c = await connection();
      const r = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1::int, $2::int) as ok', [
        LOCK_SPACE,
        tenantId,
      ]);
      if (r.rows[0]?.ok) held.add(tenantId);
      return held.has(tenantId);
    },
    publish(message) {
      if (closed) return;
      void connection()
        .then((c) => c.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ ...message, from: instance })]))
        .catch((err: unknown) => logger.warn({ err, message }, 'trading: a coordination message was not sent'));
    },
    onMessage(listener) {
      messageListeners.push(listener);
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
    async close() {
      closed = true;
      held.clear();
      await connecting?.catch(() => {});
      const c = current;
      current = undefined;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
