/** SPEC §9: a toast is swiped away past 45 px, or faster than 0.11 px/ms (a flick). */
export const SWIPE_THRESHOLD_PX = 45;
export const SWIPE_VELOCITY = 0.11;

/** Whether a horizontal drag of `dx` px that took `ms` dismisses the toast. */
export function isSwipeAway(dx: number, ms: number): boolean {
  const distance = Math.abs(dx);
  if (distance >= SWIPE_THRESHOLD_PX) return true;
  return distance > 0 && distance / Math.max(ms, 1) > SWIPE_VELOCITY;
}
