/**
 * Nelder–Mead simplex minimisation (adaptive coefficients of Gao & Han 2012, which keep it converging in 5
 * dimensions). Small and dependency-free: the smile fit needs no gradient and tolerates the penalty terms' kinks.
 */
export interface MinimiseOptions {
  /** Initial step per coordinate. */
  step: readonly number[];
  maxEvaluations?: number;
  /** Stop once the simplex's values are within this of each other. */
  tolerance?: number;
}

export function nelderMead(
  f: (x: number[]) => number,
  start: readonly number[],
  opts: MinimiseOptions,
): { x: number[]; value: number; evaluations: number } {
  const n = start.length;
  const alpha = 1;
  const beta = 1 + 2 / n;
  const gamma = 0.75 - 1 / (2 * n);
  const delta = 1 - 1 / n;
  const maxEval = opts.maxEvaluations ?? 400 * n;
  const tol = opts.tolerance ?? 1e-12;
  let evaluations = 0;
  const value = (x: number[]) => {
    evaluations++;
    const v = f(x);
    return Number.isFinite(v) ? v : Number.MAX_VALUE;
  };
  const simplex: number[][] = [[...start]];
  for (let i = 0; i < n; i++) {
    const x = [...start];
    x[i] = x[i]! + opts.step[i]!;
    simplex.push(x);
  }
  const fs = simplex.map(value);
  const order = simplex.map((_, i) => i);
  const point = (a: number[], b: number[], t: number) => a.map((ai, i) => ai + t * (b[i]! - ai));

  while (evaluations < maxEval) {
    order.sort((i, j) => fs[i]! - fs[j]!);
    const best = order[0]!;
    const worst = order[n]!;
    const second = order[n - 1]!;
    if (fs[worst]! - fs[best]! <= tol * (Math.abs(fs[best]!) + tol)) break;
    const centroid = new Array<number>(n).fill(0);
    for (const i of order.slice(0, n)) for (let d = 0; d < n; d++) centroid[d]! += simplex[i]![d]! / n;
    const xr = point(centroid, simplex[worst]!, -alpha);
    const fr = value(xr);
    if (fr < fs[best]!) {
      const xe = point(centroid, simplex[worst]!, -alpha * beta);
      const fe = value(xe);
      if (fe < fr) [simplex[worst], fs[worst]] = [xe, fe];
      else [simplex[worst], fs[worst]] = [xr, fr];
    } else if (fr < fs[second]!) {
      [simplex[worst], fs[worst]] = [xr, fr];
    } else {
      const outside = fr < fs[worst]!;
      const xc = outside ? point(centroid, xr, gamma) : point(centroid, simplex[worst]!, gamma);
      const fc = value(xc);
      if (fc <= (outside ? fr : fs[worst]!)) [simplex[worst], fs[worst]] = [xc, fc];
      else {
        // Shrink towards the best vertex.
        for (const i of order.slice(1)) {
          simplex[i] = point(simplex[best]!, simplex[i]!, delta);
          fs[i] = value(simplex[i]!);
        }
      }
    }
  }
  let bestIdx = 0;
  for (let i = 1; i <= n; i++) if (fs[i]! < fs[bestIdx]!) bestIdx = i;
  return { x: simplex[bestIdx]!, value: fs[bestIdx]!, evaluations };
}
