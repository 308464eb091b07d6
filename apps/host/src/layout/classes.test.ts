import { describe, expect, it } from 'vitest';
import { documentTitle, layoutClass, screenClass } from './classes';

describe('layoutClass', () => {
  it.each([
    ['/trader', 'trader-layout'],
    ['/trader/dashboard', 'trader-layout'],
    ['/traders', 'default-layout'],
    ['/volatility-surface', 'volatility-layout'],
    ['/volatility-surface/x', 'volatility-layout'],
    ['/pricer/1', 'pricer-layout'],
    ['/pricer/1/login', 'pricer-layout'],
    ['/pricer', 'default-layout'],
    ['/pricer/', 'default-layout'],
    ['/', 'default-layout'],
    ['/nope', 'default-layout'],
  ])('%s → %s', (path, cls) => expect(layoutClass(path)).toBe(cls));
});

describe('screenClass', () => {
  it.each([
    [320, 'screen-x-small'],
    [599, 'screen-x-small'],
    [599.99, 'screen-x-small'],
    [600, 'screen-small'],
    [959.99, 'screen-small'],
    [960, 'screen-medium'],
    [1279.99, 'screen-medium'],
    [1280, 'screen-large'],
    [2560, 'screen-large'],
  ])('%d px → %s', (w, cls) => expect(screenClass(w)).toBe(cls));
});

describe('documentTitle', () => {
  const titles = { app: 'A', volatility: 'V' };
  it('uses the volatility title only for the volatility app', () => {
    expect(documentTitle('/volatility-surface', titles)).toBe('V');
    expect(documentTitle('/trader/dashboard', titles)).toBe('A');
    expect(documentTitle('/pricer/1', titles)).toBe('A');
    expect(documentTitle('/unknown', titles)).toBe('A');
  });
});
