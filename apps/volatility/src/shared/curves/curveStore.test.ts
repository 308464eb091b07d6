import { describe, expect, it, vi } from 'vitest';
import {
  alignCurves,
  CurveStore,
  mergePoints,
  parseCurveData,
  sortBySelection,
  toChartPoints,
  UNMATCHED_RANK,
} from './curveStore';
import { curveTypesOf } from './curveTypes';

const F = 'SHFE.cu2702';
const entry = (key: string, curve_data: unknown) => ({ [key]: { _key: key, curve_data } });

function storeWith(ids: string[], future = F) {
  const warn = vi.fn();
  const store = new CurveStore(warn);
  store.select(future, curveTypesOf(ids));
  return { store, warn };
}

describe('mergePoints', () => {
  it('updates held strikes, inserts new ones in order and keeps the rest', () => {
    const held = [
      { x: 100, y: 0.2 },
      { x: 200, y: 0.3 },
    ];
    const { data, changed } = mergePoints(held, [
      [200, 0.35],
      [150, 0.25],
      [50, 0.4],
    ]);
    expect(changed).toBe(true);
    expect(data).toEqual([
      { x: 50, y: 0.4 },
      { x: 100, y: 0.2 },
      { x: 150, y: 0.25 },
      { x: 200, y: 0.35 },
    ]);
    expect(held[1]).toEqual({ x: 200, y: 0.3 }); // the held array is not mutated
  });

  it('reports no change and returns the same array when every value is equal', () => {
    const held = [{ x: 100, y: 0.2 }];
    const r = mergePoints(held, [[100, 0.2]]);
    expect(r.changed).toBe(false);
    expect(r.data).toBe(held);
  });
});

describe('parseCurveData', () => {
  it('keeps pairs of finite numbers only', () => {
    expect(parseCurveData([[1, 0.2], [2, 'x'], null, [3], [Number.NaN, 0.1], [4, 0]])).toEqual([
      [1, 0.2],
      [4, 0],
    ]);
    expect(parseCurveData('nope')).toEqual([]);
  });
});

describe('CurveStore', () => {
  it('creates a curve from its first patch with label, colour and dash, and raises the version', () => {
    const { store } = storeWith(['CALL-last', 'PUT-last']);
    expect(store.version).toBe(0);
    expect(
      store.applyPatch(
        entry(`${F}-PUT-last`, [
          [62000, 0.3],
          [61000, 0.31],
        ]),
      ),
    ).toBe(true);
    expect(store.version).toBe(1);
    const [put] = store.curvesInOrder();
    expect(put).toEqual({
      key: `${F}-PUT-last`,
      label: '看跌最新价',
      borderColor: '#5c940d',
      strokeDasharray: '5 5',
      data: [
        { x: 61000, y: 0.31 },
        { x: 62000, y: 0.3 },
      ],
    });
  });

  it('a new curve without points still counts as new', () => {
    const { store } = storeWith(['CALL-bid']);
    expect(store.applyPatch(entry(`${F}-CALL-bid`, []))).toBe(true);
    expect(store.version).toBe(1);
    expect(store.curvesInOrder()[0]!.data).toEqual([]);
  });

  it('raises the version only when a point changed', () => {
    const { store } = storeWith(['CALL-last']);
    store.applyPatch(entry(`${F}-CALL-last`, [[61000, 0.3]]));
    expect(store.version).toBe(1);
    expect(store.applyPatch(entry(`${F}-CALL-last`, [[61000, 0.3]]))).toBe(false);
    expect(store.version).toBe(1);
    expect(store.applyPatch(entry(`${F}-CALL-last`, [[61000, 0.31]]))).toBe(true);
    expect(store.version).toBe(2);
    expect(store.applyPatch(entry(`${F}-CALL-last`, [[60000, 0.33]]))).toBe(true);
    expect(store.version).toBe(3);
    expect(store.curvesInOrder()[0]!.data.map((p) => p.x)).toEqual([60000, 61000]);
  });

  it('ignores keys of unselected curves with a warning, without touching the version', () => {
    const { store, warn } = storeWith(['CALL-last']);
    expect(store.applyPatch(entry(`${F}-PUT-bid`, [[61000, 0.3]]))).toBe(false);
    expect(store.applyPatch(entry(`SHFE.cu2703-CALL-last`, [[61000, 0.3]]))).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![0])).toContain(`${F}-PUT-bid`);
    expect(store.version).toBe(0);
    expect(store.curvesInOrder()).toEqual([]);
  });

  it('uses the object key when an entry has no _key', () => {
    const { store } = storeWith(['CALL-mid']);
    store.applyPatch({ [`${F}-CALL-mid`]: { curve_data: [[1, 0.2]] } });
    expect(store.curvesInOrder().map((c) => c.label)).toEqual(['看涨中间价']);
  });

  it('orders curves by the selected curve types, not by arrival', () => {
    const { store } = storeWith(['PUT-bid', 'CALL-ask', 'CALL-last']);
    store.applyPatch({
      ...entry(`${F}-CALL-last`, [[1, 0.1]]),
      ...entry(`${F}-CALL-ask`, [[1, 0.2]]),
      ...entry(`${F}-PUT-bid`, [[1, 0.3]]),
    });
    expect(store.curvesInOrder().map((c) => c.label)).toEqual(['看跌买价', '看涨卖价', '看涨最新价']);
    expect(store.selectedLabels()).toEqual(['看跌买价', '看涨卖价', '看涨最新价']);
  });

  it('drops curves that are not in a new selection and keeps the others', () => {
    const { store } = storeWith(['CALL-last', 'PUT-last']);
    store.applyPatch({ ...entry(`${F}-CALL-last`, [[1, 0.1]]), ...entry(`${F}-PUT-last`, [[1, 0.2]]) });
    store.select(F, curveTypesOf(['PUT-last', 'PUT-bid']));
    expect(store.curvesInOrder().map((c) => c.key)).toEqual([`${F}-PUT-last`]);
    store.select('SHFE.cu2703', curveTypesOf(['PUT-last']));
    expect(store.curvesInOrder()).toEqual([]);
    expect(store.selectedFuture).toBe('SHFE.cu2703');
  });

  it('ignores patches that are not objects', () => {
    const { store } = storeWith(['CALL-last']);
    expect(store.applyPatch(null)).toBe(false);
    expect(store.applyPatch([1, 2])).toBe(false);
    expect(store.applyPatch({ k: 'x' })).toBe(false);
  });
});

describe('toChartPoints', () => {
  it('one row per strike of any curve, null where a curve has no point or σ = 0', () => {
    const rows = toChartPoints([
      {
        key: 'a',
        label: 'A',
        borderColor: '#000',
        data: [
          { x: 1, y: 0.1 },
          { x: 3, y: 0 },
        ],
      },
      { key: 'b', label: 'B', borderColor: '#111', data: [{ x: 2, y: 0.2 }] },
    ]);
    expect(rows).toEqual([
      { x: 1, A: 0.1, B: null },
      { x: 2, A: null, B: 0.2 },
      { x: 3, A: null, B: null },
    ]);
  });
});

describe('alignCurves', () => {
  it('puts every curve on the union of strikes', () => {
    const { xs, values } = alignCurves([
      {
        key: 'a',
        label: 'A',
        borderColor: '#000',
        data: [
          { x: 2, y: 0.2 },
          { x: 5, y: 0.5 },
        ],
      },
      {
        key: 'b',
        label: 'B',
        borderColor: '#111',
        data: [
          { x: 1, y: 0.1 },
          { x: 2, y: 0 },
          { x: 9, y: 0.9 },
        ],
      },
    ]);
    expect(xs).toEqual([1, 2, 5, 9]);
    expect(values).toEqual([
      [null, 0.2, 0.5, null],
      [0.1, null, null, 0.9],
    ]);
  });
});

describe('sortBySelection', () => {
  it('ranks by the selection and puts unmatched labels last in their original order', () => {
    expect(UNMATCHED_RANK).toBe(999);
    const items = ['x', 'B', 'y', 'A'];
    expect(sortBySelection(items, (s) => s, ['A', 'B'])).toEqual(['A', 'B', 'x', 'y']);
  });
});
