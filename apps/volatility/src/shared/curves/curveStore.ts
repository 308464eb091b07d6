import { curveKey, type CurveType } from './curveTypes';

/** One point of a curve: x = strike, y = implied volatility σ (a fraction, 0.23 = 23%). */
export interface CurvePoint {
  x: number;
  y: number;
}

/** SPEC §3 client-held curve: points ascending by x. */
export interface ClientCurve {
  key: string;
  label: string;
  borderColor: string;
  strokeDasharray?: string;
  data: readonly CurvePoint[];
}

/** SPEC §3 chart point: x plus one value per curve label; missing (or 0) values are null. */
export type ChartPoint = { x: number } & Record<string, number | null>;

/** Where curves that match no selected curve type are ranked (after every selected one). */
export const UNMATCHED_RANK = 999;

type Warn = (...args: unknown[]) => void;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `curve_data` of a push: [[strike, σ], …]; anything that is not a pair of finite numbers is dropped. */
export function parseCurveData(raw: unknown): [number, number][] {
  if (!Array.isArray(raw)) return [];
  const points: [number, number][] = [];
  for (const p of raw) {
    if (!Array.isArray(p)) continue;
    const [x, y] = p as unknown[];
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y)) points.push([x, y]);
  }
  return points;
}

/**
 * Merges points into a curve point by point: a strike already held takes the new value, a new
 * strike is inserted in order, strikes absent from the patch are kept. The array is replaced only
 * when something changed, so an unchanged curve stays the same object.
 */
export function mergePoints(
  existing: readonly CurvePoint[],
  incoming: readonly (readonly [number, number])[],
): { data: readonly CurvePoint[]; changed: boolean } {
  const indexOf = new Map<number, number>();
  existing.forEach((p, i) => indexOf.set(p.x, i));
  let data: CurvePoint[] | undefined;
  let added = false;
  for (const [x, y] of incoming) {
    const i = indexOf.get(x);
    if (i === undefined) {
      data ??= existing.slice();
      indexOf.set(x, data.length);
      data.push({ x, y });
      added = true;
    } else if ((data ?? existing)[i]!.y !== y) {
      data ??= existing.slice();
      data[i] = { x, y };
    }
  }
  if (!data) return { data: existing, changed: false };
  if (added) data.sort((a, b) => a.x - b.x);
  return { data, changed: true };
}

/**
 * The curves on a common strike axis: every strike of any curve, ascending, and per curve its σ
 * at each of them, null where the curve has no point or σ = 0 (SPEC: 0 is missing). A merge-join
 * over the already sorted curves, so a redraw of 8 × 200 points allocates little.
 */
export function alignCurves(curves: readonly ClientCurve[]): { xs: number[]; values: (number | null)[][] } {
  const set = new Set<number>();
  for (const c of curves) for (const p of c.data) set.add(p.x);
  const xs = [...set].sort((a, b) => a - b);
  const values = curves.map((c) => {
    const out = new Array<number | null>(xs.length);
    let j = 0;
    for (let i = 0; i < xs.length; i++) {
      const p = c.data[j];
      if (p !== undefined && p.x === xs[i]) {
        out[i] = p.y === 0 ? null : p.y;
        j++;
      } else {
        out[i] = null;
      }
    }
    return out;
  });
  return { xs, values };
}

/**
 * SPEC §3/§4: the chart's rows. Every strike of any curve is a row; a curve without that strike,
 * or with σ = 0 there, has null (the chart connects lines over the gap).
 */
export function toChartPoints(curves: readonly ClientCurve[]): ChartPoint[] {
  const { xs, values } = alignCurves(curves);
  return xs.map((x, i) => {
    const point = { x } as ChartPoint;
    curves.forEach((c, k) => (point[c.label] = values[k]![i]!));
    return point;
  });
}

/** Sorts items by the order of the selected curve labels; unmatched labels go last (rank 999), stably. */
export function sortBySelection<T>(
  items: readonly T[],
  labelOf: (item: T) => string,
  selected: readonly string[],
): T[] {
  const rank = (label: string) => {
    const i = selected.indexOf(label);
    return i === -1 ? UNMATCHED_RANK : i;
  };
  return items
    .map((item, i) => ({ item, i, r: rank(labelOf(item)) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((e) => e.item);
}

/**
 * The curves the page holds for one selection (SPEC §4). Pure: no I/O, no React. `version`
 * rises only when a patch changed a point or brought a new curve, so it can drive redraws.
 */
export class CurveStore {
  private future: string | null = null;
  private typeByKey = new Map<string, CurveType>();
  private readonly curves = new Map<string, ClientCurve>();
  private _version = 0;
  /** Cached views, so unchanged data keeps its identity between renders. */
  private ordered: ClientCurve[] | undefined;
  private labels: string[] = [];

  constructor(private readonly warn: Warn = console.warn) {}

  get version(): number {
    return this._version;
  }

  get selectedFuture(): string | null {
    return this.future;
  }

  /** A new selection: curves outside it are dropped; the rest are kept until new data arrives. */
  select(future: string | null, types: readonly CurveType[]): void {
    this.future = future;
    this.typeByKey = new Map(future ? types.map((t) => [curveKey(future, t), t]) : []);
    for (const key of [...this.curves.keys()]) if (!this.typeByKey.has(key)) this.curves.delete(key);
    this.ordered = undefined;
    const labels = types.map((t) => t.label);
    if (labels.join('\n') !== this.labels.join('\n')) this.labels = labels;
  }

  clear(): void {
    this.curves.clear();
    this.ordered = undefined;
  }

  /**
   * Merges a push patch `{KEY: {_key, curve_data}}` into the matching curves. Keys of no selected
   * curve are ignored with a warning. Returns whether anything changed.
   */
  applyPatch(patch: unknown): boolean {
    if (!isRecord(patch)) return false;
    let changed = false;
    for (const [name, entry] of Object.entries(patch)) {
      if (!isRecord(entry)) continue;
      const key = typeof entry._key === 'string' ? entry._key : name;
      const type = this.typeByKey.get(key);
      if (!type) {
        this.warn(`[volatility] 忽略未选择的曲线数据: ${key}`);
        continue;
      }
      const points = parseCurveData(entry.curve_data);
      const held = this.curves.get(key);
      if (!held) {
        this.curves.set(key, {
          key,
          label: type.label,
          borderColor: type.color,
          ...(type.strokeDasharray ? { strokeDasharray: type.strokeDasharray } : {}),
          data: mergePoints([], points).data,
        });
        changed = true;
        continue;
      }
      const merged = mergePoints(held.data, points);
      if (merged.changed) {
        this.curves.set(key, { ...held, data: merged.data });
        changed = true;
      }
    }
    if (changed) {
      this._version++;
      this.ordered = undefined;
    }
    return changed;
  }

  /** The held curves in the order of the selected curve types. */
  curvesInOrder(): readonly ClientCurve[] {
    this.ordered ??= sortBySelection([...this.curves.values()], (c) => c.label, this.labels);
    return this.ordered;
  }

  /** Labels of the selected curve types, in selection order (the tooltip's order); stable while unchanged. */
  selectedLabels(): readonly string[] {
    return this.labels;
  }
}
