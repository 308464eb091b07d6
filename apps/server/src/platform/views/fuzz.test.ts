import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runView, type ViewDef } from './engine';
import { ViewError } from './errors';
import { quoteFilterValue } from './filter';
import {
  contractsDef,
  openTestDatabase,
  ordersDef,
  seed,
  tenantsDef,
  type Seed,
  type TestDatabase,
} from '../../../test/views/testSupport';

let t: TestDatabase;
let s: Seed;

beforeAll(async () => {
  t = await openTestDatabase();
  s = await seed(t.db);
});
afterAll(() => t?.close());

/** VIEW_FUZZ_SCALE=10 for a longer run. */
const SCALE = Number(process.env.VIEW_FUZZ_SCALE ?? 1) || 1;

const DEFS: ViewDef[] = [ordersDef, contractsDef, tenantsDef];
const scopeFor = (def: ViewDef): Record<string, number> => (def === tenantsDef ? {} : { tenant_id: s.tenantA });

/** runView answers or throws ViewError; anything else (a SQL error, a TypeError) fails the property. */
async function answersOrRefuses(def: ViewDef, body: unknown): Promise<void> {
  try {
    const r = await runView(t.db, def, body, scopeFor(def));
    expect(Array.isArray(r.items)).toBe(true);
    expect(Number.isInteger(r.total_count)).toBe(true);
  } catch (e) {
    if (!(e instanceof ViewError)) throw e;
    expect(e.kind).toBe('invalid');
    expect(e.message).toMatch(/[\u4e00-\u9fff]/);
  }
}

const defArb = fc.constantFrom(...DEFS);

// Fields: every white-listed one of every def (so often not of the def at hand).
const fieldArb = fc.constantFrom(...new Set(DEFS.flatMap((d) => Object.keys(d.columns))));
const keywordArb = fc
  .tuple(fc.constantFrom('and', 'is', 'true', 'false', 'contains', 'in'), fc.array(fc.boolean(), { maxLength: 8 }))
  .map(([w, caps]) => [...w].map((c, i) => (caps[i] ? c.toUpperCase() : c)).join(''));
const weirdText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("'", '\\', '%', '_', '"', '[', ']', ',', '=', ' ', '\t', '\n', '中', '😀', 'a', 'Z', '0', '-', '.'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 20,
});
const stringLitArb = fc.oneof(
  weirdText.map(quoteFilterValue),
  fc
    .constantFrom('2024-04-28', '2024-02-29', '2023-02-29', '0001-01-01', '9999-12-31', '0000-01-01', '2024-13-01')
    .map(quoteFilterValue),
  weirdText.map((v) => `'${v}'`), // unescaped: often broken on purpose
);
const numberLitArb = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
  fc.constantFrom(
    '0',
    '-0',
    '1.5',
    '2147483647',
    '2147483648',
    '-2147483649',
    '9007199254740993',
    '1e308',
    '1e-320',
    '1e400',
    '0.1E+2',
    '00012',
  ),
);
const valueArb = fc.oneof(stringLitArb, numberLitArb);
const listArb = fc
  .array(valueArb, { maxLength: 4 })
  .chain((vs) =>
    fc.constantFrom(`[${vs.join(',')}]`, `[${vs.join(' , ')}]`, `[${vs.join(',')},]`, `[${vs.join(' ')}]`),
  );

const junkFieldArb = fc.constantFrom(
  'tenant_id',
  'constructor',
  '__proto__',
  'toString',
  'a.b',
  'ID',
  '_',
  'and',
  'in',
  'is',
);
const dateLitArb = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => quoteFilterValue(d.toISOString().slice(0, 10)));

/** The condition forms a column of this type accepts, with fitting values (so the condition reaches the database). */
function typedCondArb(field: string, type: ViewDef['columns'][string]['type']): fc.Arbitrary<string> {
  switch (type) {
    case 'boolean':
      return fc.constantFrom(`${field} is true`, `${field} IS False`);
    case 'text':
      return fc.oneof(
        weirdText.map((v) => `${field} contains ${quoteFilterValue(v)}`),
        weirdText.map((v) => `${field} = ${quoteFilterValue(v)}`),
        fc.array(weirdText, { maxLength: 4 }).map((vs) => `${field} in [${vs.map(quoteFilterValue).join(', ')}]`),
      );
    case 'number':
      return fc.oneof(
        numberLitArb.map((n) => `${field} = ${n}`),
        fc.array(numberLitArb, { maxLength: 4 }).map((ns) => `${field} in [${ns.join(',')}]`),
      );
    case 'date':
      return fc.oneof(
        dateLitArb.map((d) => `${field} = ${d}`),
        fc.array(fc.oneof(dateLitArb, stringLitArb), { maxLength: 3 }).map((ds) => `${field} in [${ds.join(',')}]`),
      );
  }
}

/** A condition that is usually well-formed and well-typed for `def`, but sometimes has the wrong shape. */
function condArb(def: ViewDef): fc.Arbitrary<string> {
  const typed = fc.oneof(...Object.entries(def.columns).map(([field, col]) => typedCondArb(field, col.type)));
  const anyField = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...Object.keys(def.columns)) },
    { weight: 1, arbitrary: fieldArb },
    { weight: 1, arbitrary: junkFieldArb },
  );
  const shapeless = fc.oneof(
    fc.tuple(anyField, fc.constantFrom('is true', 'IS FALSE', 'is maybe')).map(([f, r]) => `${f} ${r}`),
    fc.tuple(anyField, fc.oneof(stringLitArb, numberLitArb)).map(([f, v]) => `${f} contains ${v}`),
    fc.tuple(anyField, valueArb).map(([f, v]) => `${f} = ${v}`),
    fc.tuple(anyField, listArb).map(([f, l]) => `${f} in ${l}`),
  );
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: shapeless });
}

const tokenArb = fc.oneof(
  fieldArb,
  keywordArb,
  stringLitArb,
  numberLitArb,
  fc.constantFrom('[', ']', ',', '=', "'", '\\', '(', ')', ';', '--', '/*', '*/', 'or', 'OR 1=1', '$1', '::text', '"'),
);
const separatorArb = fc.constantFrom(' ', '', '  ', '\t', '\n');

/** A def and a filter for it: conditions joined by `and`, now and then spliced with random tokens. */
const defAndFilterArb = defArb.chain((def) =>
  fc.tuple(
    fc.constant(def),
    fc.oneof(
      { weight: 4, arbitrary: fc.array(condArb(def), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(' and ')) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.array(condArb(def), { maxLength: 3 }), fc.array(fc.tuple(tokenArb, separatorArb), { maxLength: 8 }))
          .map(([cs, toks]) => [cs.join(' AND '), ...toks.map(([tok, sep]) => tok + sep)].join(' ')),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.tuple(tokenArb, separatorArb), { minLength: 1, maxLength: 15 })
          .map((ts) => ts.map(([a, b]) => a + b).join('')),
      },
    ),
  ),
);
const nearValidFilterArb = defAndFilterArb.map(([, f]) => f);

describe('fuzz: runView answers or throws ViewError, never anything else', () => {
  it('(a) random strings as filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        defArb,
        fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }), weirdText),
        (def, filter) => answersOrRefuses(def, { filter }),
      ),
      { numRuns: 300 * SCALE },
    );
  });

  it('(b) near-valid token sequences as filter', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(defAndFilterArb, async ([def, filter]) => {
        try {
          await runView(t.db, def, { filter, slice_start: 0, slice_end: 5 }, scopeFor(def));
          answered++;
        } catch (e) {
          if (!(e instanceof ViewError)) throw e;
        }
      }),
      { numRuns: 600 * SCALE },
    );
    // The generator must actually reach the database, not only the parser.
    expect(answered).toBeGreaterThan(200);
  });

  it('(b2) random bodies: sort, slice, group_by, aggregates, search', async () => {
    const anyField = fc.oneof(fieldArb, junkFieldArb, fc.string({ maxLength: 5 }));
    const bodyArb = fc.record(
      {
        filter: fc.oneof(nearValidFilterArb, fc.constant(''), fc.anything()),
        search: fc.oneof(weirdText, fc.anything()),
        sort_fields: fc.oneof(
          fc.array(fc.record({ field: anyField, ascending: fc.boolean() }), { maxLength: 4 }),
          fc.anything(),
        ),
        slice_start: fc.oneof(fc.nat(60), fc.integer(), fc.double(), fc.anything()),
        slice_end: fc.oneof(fc.nat(1200), fc.integer(), fc.anything()),
        group_by_fields: fc.oneof(fc.array(anyField, { maxLength: 3 }), fc.anything()),
        aggregate_fields: fc.oneof(
          fc.array(fc.record({ field: anyField, op: fc.constantFrom('count', 'sum', 'avg', 'min', 'max', 'median') }), {
            maxLength: 3,
          }),
          fc.anything(),
        ),
        contract_id: fc.anything(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        defArb,
        fc.oneof({ weight: 9, arbitrary: bodyArb }, { weight: 1, arbitrary: fc.anything() }),
        answersOrRefuses,
      ),
      { numRuns: 400 * SCALE },
    );
  });

  it("(c) any value round-trips through `field = '…'` to exactly its row", async () => {
    // Arbitrary Unicode (PostgreSQL text cannot hold NUL) with quotes, backslashes and LIKE wildcards mixed in.
    const valueArb = fc
      .oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), weirdText)
      .filter((v) => !v.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(valueArb, async (value) => {
        const base = {
          tenant_id: s.tenantC,
          contract_id: s.contractC,
          pricer_id: s.pricers.dave,
          instrument_id: 'cu2405',
        };
        const rows = await t.db
          .insertInto('orders')
          .values([
            { ...base, direction: 'BUY', volume_orign: 1, limit_price: 1, status: 'ALIVE', last_msg: value },
            // A decoy that LIKE would match if `%` or `_` were not escaped in `contains`, and that `=` must not.
            { ...base, direction: 'BUY', volume_orign: 1, limit_price: 1, status: 'ALIVE', last_msg: `${value}%x` },
          ])
          .returning('id')
          .execute();
        const [own, decoy] = rows.map((r) => Number(r.id)) as [number, number];
        try {
          const scope = { tenant_id: s.tenantC };
          const eq = await runView(t.db, ordersDef, { filter: `last_msg = ${quoteFilterValue(value)}` }, scope);
          expect(eq.items.map((i) => i.id)).toEqual([own]);
          expect(eq.items[0]?.last_msg).toBe(value);
          expect(eq.total_count).toBe(1);
          const inList = await runView(
            t.db,
            ordersDef,
            { filter: `last_msg in ['\\\\', ${quoteFilterValue(value)}]` },
            scope,
          );
          expect(inList.items.map((i) => i.id)).toEqual([own]);
          const contains = await runView(
            t.db,
            ordersDef,
            { filter: `last_msg contains ${quoteFilterValue(value)}` },
            scope,
          );
          expect(contains.items.map((i) => i.id)).toEqual([decoy, own]); // both hold the value
          const containsDecoy = await runView(
            t.db,
            ordersDef,
            { filter: `last_msg contains ${quoteFilterValue(`${value}%x`)}` },
            scope,
          );
          expect(containsDecoy.items.map((i) => i.id)).toEqual([decoy]);
        } finally {
          await t.db.deleteFrom('orders').where('id', 'in', [own, decoy]).execute();
        }
      }),
      { numRuns: 150 * SCALE },
    );
  });
});
