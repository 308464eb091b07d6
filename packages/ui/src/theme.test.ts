import { describe, expect, it } from 'vitest';
import { themeFromSearch } from './theme';

describe('themeFromSearch', () => {
  it('reads ?theme=dark', () => expect(themeFromSearch('?theme=dark')).toBe('dark'));
  it('defaults to light', () => {
    expect(themeFromSearch('')).toBe('light');
    expect(themeFromSearch('?theme=blue')).toBe('light');
    expect(themeFromSearch('?x=1&theme=light')).toBe('light');
  });
});
