import { describe, expect, it } from 'vitest';
import { isSwipeAway } from './swipe';

describe('isSwipeAway', () => {
  it('dismisses past 45 px, however slow, either way', () => {
    expect(isSwipeAway(45, 10_000)).toBe(true);
    expect(isSwipeAway(-60, 10_000)).toBe(true);
    expect(isSwipeAway(44, 10_000)).toBe(false);
  });

  it('dismisses a flick faster than 0.11 px/ms', () => {
    // 20 px in 100 ms = 0.2 px/ms; in 400 ms = 0.05 px/ms.
    expect(isSwipeAway(20, 100)).toBe(true);
    expect(isSwipeAway(-20, 100)).toBe(true);
    expect(isSwipeAway(20, 400)).toBe(false);
    expect(isSwipeAway(11, 100)).toBe(false);
  });

  it('a click is no swipe', () => {
    expect(isSwipeAway(0, 0)).toBe(false);
    expect(isSwipeAway(0, 80)).toBe(false);
  });
});
