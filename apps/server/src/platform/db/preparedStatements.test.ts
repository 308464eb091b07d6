import { describe, expect, it } from 'vitest';
import { isStalePreparedStatement, PLANNED_PER_CALL, StatementNames } from './preparedStatements';

describe('StatementNames', () => {
  const a = {};
  const b = {};

  it('names a text with parameters from its third use on, the same name on every connection', () => {
    const names = new StatementNames();
    const text = 'select * from orders where id = $1';
    expect(names.nameFor(a, text, 1)).toBeUndefined();
    expect(names.nameFor(a, text, 1)).toBeUndefined();
    const name = names.nameFor(a, text, 1);
    expect(name).toMatch(/^pfp_[0-9a-f]{24}$/);
    expect(names.nameFor(a, text, 1)).toBe(name);
    expect(names.nameFor(b, text, 1)).toBe(name);
    expect(names.nameFor(a, 'select * from orders where id = $2', 1)).toBeUndefined();
  });

  it('never names a text without parameters (migrations, several statements in one text)', () => {
    const names = new StatementNames({ hotAfter: 1 });
    for (let i = 0; i < 5; i++) expect(names.nameFor(a, 'begin', 0)).toBeUndefined();
  });

  it('never names a text marked as planned per call (the view engine’s)', () => {
    const names = new StatementNames({ hotAfter: 1 });
    const text = `select * from v_orders where tenant_id = $1 and pricer_name ilike $2 ${PLANNED_PER_CALL}`;
    for (let i = 0; i < 5; i++) expect(names.nameFor(a, text, 2)).toBeUndefined();
  });

  it('keeps at most perConnection names on a connection; the ones it has stay named', () => {
    const names = new StatementNames({ hotAfter: 1, perConnection: 2 });
    const [n1, n2] = [names.nameFor(a, 'q1 $1', 1), names.nameFor(a, 'q2 $1', 1)];
    expect(n1).toBeDefined();
    expect(n2).toBeDefined();
    expect(names.nameFor(a, 'q3 $1', 1)).toBeUndefined();
    expect(names.nameFor(a, 'q1 $1', 1)).toBe(n1);
    expect(names.nameFor(b, 'q3 $1', 1)).toBeDefined();
  });

  it('counts at most maxTexts texts: a flood of one-off texts starts the counts over', () => {
    const names = new StatementNames({ hotAfter: 2, maxTexts: 3 });
    names.nameFor(a, 'hot $1', 1);
    for (const t of ['x $1', 'y $1']) names.nameFor(a, t, 1);
    names.nameFor(a, 'z $1', 1); // the fourth text: the counts start over
    expect(names.nameFor(a, 'hot $1', 1)).toBeUndefined();
    expect(names.nameFor(a, 'hot $1', 1)).toBeDefined();
  });

  it('knows PostgreSQL’s answer for a statement whose columns changed', () => {
    expect(
      isStalePreparedStatement(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' })),
    ).toBe(true);
    expect(isStalePreparedStatement(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isStalePreparedStatement(undefined)).toBe(false);
  });
});
