import { describe, expect, it } from 'vitest';
import { applyPatches, getObject, getPath, type JsonObject, mergePatch } from './mergePatch';

describe('mergePatch', () => {
  it('adds, replaces and merges nested objects', () => {
    const tree: JsonObject = { quotes: { 'SHFE.cu2601': { last_price: 80000, volume: 10 } }, ins_list: 'SHFE.cu2601' };
    mergePatch(tree, {
      quotes: { 'SHFE.cu2601': { last_price: 80010 }, 'DCE.m2601': { last_price: 3000 } },
      ins_list: 'SHFE.cu2601,DCE.m2601',
    });
    expect(tree).toEqual({
      quotes: { 'SHFE.cu2601': { last_price: 80010, volume: 10 }, 'DCE.m2601': { last_price: 3000 } },
      ins_list: 'SHFE.cu2601,DCE.m2601',
    });
  });

  it('deletes keys set to null, at any depth, and ignores deletions of missing keys', () => {
    const tree: JsonObject = { a: 1, b: { c: 2, d: { e: 3, f: 4 } } };
    mergePatch(tree, { a: null, b: { d: { e: null } }, missing: null });
    expect(tree).toEqual({ b: { c: 2, d: { f: 4 } } });
  });

  it('removes an object whose every field this patch deleted (DIFF rule), but keeps objects created empty', () => {
    const tree: JsonObject = { trade: { u1: { orders: { o1: { status: 'ALIVE' } } } } };
    mergePatch(tree, { trade: { u1: { orders: { o1: null } } } });
    expect(tree).toEqual({ trade: { u1: {} } });
    mergePatch(tree, { symbols: {} });
    expect(tree).toEqual({ trade: { u1: {} }, symbols: {} });
  });

  it('replaces arrays and scalars whole, and replaces a scalar by an object', () => {
    const tree: JsonObject = { list: [1, 2, 3], close: '-', o: 5 };
    mergePatch(tree, { list: [4], close: 36270, o: { x: 1 } });
    expect(tree).toEqual({ list: [4], close: 36270, o: { x: 1 } });
    mergePatch(tree, { o: 'scalar' });
    expect(tree.o).toBe('scalar');
  });

  it('never shares objects with the patch', () => {
    const patch: JsonObject = { quotes: { q: { p: 1, levels: [1, 2] } } };
    const tree = mergePatch({}, patch);
    mergePatch(tree, { quotes: { q: { p: 2 } } });
    (getPath(tree, 'quotes', 'q', 'levels') as number[]).push(3);
    expect(patch).toEqual({ quotes: { q: { p: 1, levels: [1, 2] } } });
  });

  it('ignores __proto__ keys', () => {
    const tree = mergePatch({}, JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype);
    expect(tree).toEqual({ a: {} });
  });

  it('applies the patches of one rtn_data in order', () => {
    const tree = applyPatches({}, [{ balance: 1 }, { balance: 2, float_profit: 3 }, { float_profit: null }]);
    expect(tree).toEqual({ balance: 2 });
  });
});

describe('getPath / getObject', () => {
  it('walks the tree', () => {
    const tree: JsonObject = { trade: { u1: { session: { trading_day: '20251201' } } } };
    expect(getPath(tree, 'trade', 'u1', 'session', 'trading_day')).toBe('20251201');
    expect(getPath(tree, 'trade', 'u2', 'session')).toBeUndefined();
    expect(getPath(tree, 'trade', 'u1', 'session', 'trading_day', 'x')).toBeUndefined();
    expect(getObject(tree, 'trade', 'u1')).toEqual({ session: { trading_day: '20251201' } });
    expect(getObject(tree, 'trade', 'u1', 'session', 'trading_day')).toBeUndefined();
    expect(getPath(tree, 'constructor')).toBeUndefined();
  });
});
