import { describe, expect, it } from 'vitest';
import { themeFromSearch, themeParam } from './theme';

describe('themeFromSearch', () => {
  it('reads ?theme=dark', () => expect(themeFromSearch('?theme=dark')).toBe('dark'));
  it('defaults to light', () => {
    expect(themeFromSearch('')).toBe('light');
    expect(themeFromSearch('?theme=blue')).toBe('light');
    expect(themeFromSearch('?x=1&theme=light')).toBe('light');
  });
});

describe('themeParam', () => {
  it('is null when the address names no theme', () => {
    expect(themeParam('')).toBeNull();
    expect(themeParam('?from=bookmark')).toBeNull();
  });
  it('reads dark, anything else named is light', () => {
    expect(themeParam('?theme=dark')).toBe('dark');
    expect(themeParam('?theme=light')).toBe('light');
    expect(themeParam('?theme=')).toBe('light');
  });
});
