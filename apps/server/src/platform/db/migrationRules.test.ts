import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

/**
 * Versioned migrations hold tables, columns, indexes and data moves only: a view, function or trigger is defined
 * once, beside its capability (sqlObjects.ts, docs/architecture.md "SQL objects"). One created in a migration would
 * be replaced by its sql.ts definition on a new database and kept on an old one.
 */
it('no migration creates a view, a function or a trigger', () => {
  const dir = new URL('./migrations/', import.meta.url);
  const found = readdirSync(dir).flatMap((file) =>
    [
      ...readFileSync(new URL(file, dir), 'utf8').matchAll(
        /create\s+(or\s+replace\s+)?(view|function|trigger)\s+\w+/gi,
      ),
    ].map((m) => `${file}: ${m[0]}`),
  );
  expect(found).toEqual([]);
});
