/** Rational cubic interpolation (Delbourgo & Gregory 1985), used for Jäckel's initial guesses. */

const DBL_EPSILON = 2.220446049250313e-16;
export const RC_MIN = -(1 - Math.sqrt(DBL_EPSILON)); // r > −1 keeps the denominator positive
const RC_MAX = 2 / (DBL_EPSILON * DBL_EPSILON); // at or above: the interpolant degenerates to a straight line

/** The interpolant through (xl, yl) and (xr, yr) with end slopes dl and dr and control parameter r, at x. */
function rationalCubic(x: number, xl: number, xr: number, yl: number, yr: number, dl: number, dr: number, r: number) {
  const h = xr - xl;
  if (!(Math.abs(h) > 0)) return 0.5 * (yl + yr);
  const t = (x - xl) / h;
  if (r < RC_MAX) {
    const omt = 1 - t;
    const t2 = t * t;
    const omt2 = omt * omt;
    return (
      (yr * t2 * t + (r * yr - h * dr) * t2 * omt + (r * yl + h * dl) * t * omt2 + yl * omt2 * omt) /
      (1 + (r - 3) * t * omt)
    );
  }
  return yr * t + yl * (1 - t);
}

/** Smallest control parameter that keeps the interpolant monotone and/or convex where the data allow it. */
function minimumControl(dl: number, dr: number, slope: number, preferShape: boolean): number {
  const monotonic = dl * slope >= 0 && dr * slope >= 0;
  const convex = dl <= slope && slope <= dr;
  const concave = dl >= slope && slope >= dr;
  if (!monotonic && !convex && !concave) return RC_MIN;
  let r1 = -Infinity;
  let r2 = -Infinity;
  if (monotonic) {
    if (slope !== 0) r1 = (dr + dl) / slope;
    else if (preferShape) r1 = RC_MAX;
  }
  if (convex || concave) {
    const left = slope - dl;
    const right = dr - slope;
    if (left !== 0 && right !== 0) r2 = Math.max(Math.abs((dr - dl) / right), Math.abs((dr - dl) / left));
    else if (preferShape) r2 = RC_MAX;
  } else if (monotonic && preferShape) {
    r2 = RC_MAX;
  }
  return Math.max(RC_MIN, r1, r2);
}

/**
 * Control parameter making the interpolant's second derivative equal d2 at the left (atLeft) or right end, raised
 * to the shape-preserving minimum. From s''(x_l) = (2/h)·[r(Δ − d_l) − (d_r − d_l)] and its mirror image.
 */
export function controlFittingSecondDerivative(
  atLeft: boolean,
  xl: number,
  xr: number,
  yl: number,
  yr: number,
  dl: number,
  dr: number,
  d2: number,
  preferShape: boolean,
): number {
  const h = xr - xl;
  const slope = (yr - yl) / h;
  const numerator = 0.5 * h * d2 + (dr - dl);
  const denominator = atLeft ? slope - dl : dr - slope;
  let r: number;
  if (numerator === 0) r = 0;
  else if (denominator === 0) r = numerator > 0 ? RC_MAX : RC_MIN;
  else r = numerator / denominator;
  return Math.max(r, minimumControl(dl, dr, slope, preferShape));
}

export { rationalCubic };
