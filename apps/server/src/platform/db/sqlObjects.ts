import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Views, functions and triggers: each defined once, beside the capability that owns it (`modules/<name>/sql.ts`,
 * listed by its `Capability.sql`), and applied after the versioned migrations as repeatable definitions
 * (docs/architecture.md "SQL objects"). The versioned migrations hold tables, columns, indexes and data moves only.
 */
export type SqlObject =
  | { kind: 'view'; name: string; create: string }
  | { kind: 'function'; name: string; create: string }
  | { kind: 'trigger'; name: string; table: string; create: string };

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

const checkName = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`SQL object: bad name ${name}`);
  return name;
};

/** A view: its name and its query (`select …`). */
export const view = (name: string, query: string): SqlObject => ({
  kind: 'view',
  name: checkName(name),
  create: `create view ${name} as ${query.trim()}`,
});

/** A function: its name and the rest of its `create function` statement (`(args) returns … as $$ … $$`). */
export const sqlFunction = (name: string, rest: string): SqlObject => ({
  kind: 'function',
  name: checkName(name),
  create: `create function ${name}${rest.trim()}`,
});

/** A trigger: its name and the rest of its `create trigger` statement (`after insert on <table> …`). */
export function trigger(name: string, rest: string): SqlObject {
  const table = / on ([a-z_][a-z0-9_]*)\b/.exec(rest)?.[1];
  if (!table) throw new Error(`SQL object: trigger ${name} names no table (… on <table> …)`);
  return { kind: 'trigger', name: checkName(name), table, create: `create trigger ${name} ${rest.trim()}` };
}

/** What is recorded of an applied object: enough to drop it once it leaves the list. */
type Recorded = Pick<SqlObject, 'kind' | 'name'> & { table?: string };

/**
 * Kysely's migration lock (its PostgresAdapter): a migration and a redefinition never interleave, and of several
 * instances starting at once on one PostgreSQL one applies the definitions while the others wait and find them done.
 */
const MIGRATION_LOCK_ID = '3853314791062309107';

/** The checksum of a list of definitions: any change of text, order or membership changes it. */
export const sqlObjectsChecksum = (objects: readonly SqlObject[]) =>
  createHash('sha256').update(JSON.stringify(objects)).digest('hex');

const lit = (names: readonly string[]) => (names.length ? sql.join(names.map((n) => sql.lit(n))) : sql`null`);

/**
 * Brings the database's views, functions and triggers to `objects`, in one transaction under the migrator's lock.
 * On most starts nothing changed: the stored checksum matches and every object is there (five cheap statements).
 * Otherwise every object recorded last time and every object of the list is dropped (in reverse list order,
 * `if exists`), the list is created in its order, and the list and its checksum are recorded.
 */
export async function applySqlObjects<DB>(
  db: Kysely<DB>,
  objects: readonly SqlObject[],
): Promise<{ applied: boolean }> {
  const seen = new Set<string>();
  for (const o of objects) {
    if (seen.has(o.name)) throw new Error(`SQL object ${o.name} is defined twice`);
    seen.add(o.name);
  }
  const checksum = sqlObjectsChecksum(objects);
  return db.transaction().execute(async (tx) => {
    // Waiting for another instance's migration or redefinition is not a slow statement.
    await sql`set local statement_timeout = 0`.execute(tx);
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_ID)}::bigint)`.execute(tx);
    await sql`
      create table if not exists sql_objects_applied (
        id boolean primary key default true check (id),
        checksum text not null,
        objects jsonb not null,
        applied_at timestamptz not null default now()
      )`.execute(tx);
    const stored = (
      await sql<{ checksum: string; objects: Recorded[] | string }>`
        select checksum, objects from sql_objects_applied`.execute(tx)
    ).rows[0];
    if (stored?.checksum === checksum && (await presentCount(tx, objects)) === objects.length)
      return { applied: false };

    const previous: Recorded[] = stored
      ? typeof stored.objects === 'string'
        ? (JSON.parse(stored.objects) as Recorded[])
        : stored.objects
      : [];
    const recorded: Recorded[] = objects.map((o) => ({
      kind: o.kind,
      name: o.name,
      ...(o.kind === 'trigger' ? { table: o.table } : {}),
    }));
    const dropped = new Set<string>();
    for (const o of [...previous].reverse().concat([...recorded].reverse())) {
      if (dropped.has(`${o.kind}:${o.name}`)) continue;
      dropped.add(`${o.kind}:${o.name}`);
      await sql.raw(dropStatement(o)).execute(tx);
    }
    for (const o of objects) await sql.raw(o.create).execute(tx);
    await sql`
      insert into sql_objects_applied (checksum, objects) values (${checksum}, ${JSON.stringify(recorded)}::jsonb)
      on conflict (id) do update set checksum = excluded.checksum, objects = excluded.objects, applied_at = now()`.execute(
      tx,
    );
    return { applied: true };
  });
}

function dropStatement(o: Recorded): string {
  checkName(o.name);
  if (o.kind === 'view') return `drop view if exists ${o.name}`;
  if (o.kind === 'function') return `drop function if exists ${o.name}`;
  return `drop trigger if exists ${o.name} on ${checkName(o.table ?? '')}`;
}

/** How many of the objects exist in the current schema (a view or a function dropped by hand is put back). */
async function presentCount<DB>(db: Kysely<DB>, objects: readonly SqlObject[]): Promise<number> {
  const names = (kind: SqlObject['kind']) => lit(objects.filter((o) => o.kind === kind).map((o) => o.name));
  const { rows } = await sql<{ n: number | string }>`
    select (select count(*) from pg_views where schemaname = current_schema() and viewname in (${names('view')}))
         + (select count(distinct p.proname) from pg_proc p
             where p.pronamespace = current_schema()::regnamespace and p.proname in (${names('function')}))
         + (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid
             where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal
               and t.tgname in (${names('trigger')})) as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
