import { describe, expect, it } from 'vitest';
import { isSidebarHotkey, readSidebarCookie, sidebarCookie } from './sidebarState';

describe('sidebar state cookie', () => {
  it('is sidebar_state for 7 days on the whole site', () => {
    expect(sidebarCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800; SameSite=Lax');
    expect(sidebarCookie(true)).toBe('sidebar_state=true; path=/; max-age=604800; SameSite=Lax');
  });

  it.each([
    ['sidebar_state=false', false],
    ['a=1; sidebar_state=true; b=2', true],
    ['other_sidebar_state=false', null],
    ['sidebar_state=maybe', null],
    ['', null],
  ])('reads %j as %s', (cookie, expected) => {
    expect(readSidebarCookie(cookie)).toBe(expected);
  });
});

describe('the sidebar hotkey', () => {
  const key = (over: Partial<KeyboardEvent>) => ({
    key: 'b',
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...over,
  });
  it('is Ctrl+B or Cmd+B', () => {
    expect(isSidebarHotkey(key({ ctrlKey: true }))).toBe(true);
    expect(isSidebarHotkey(key({ metaKey: true, key: 'B' }))).toBe(true);
    expect(isSidebarHotkey(key({}))).toBe(false);
    expect(isSidebarHotkey(key({ ctrlKey: true, key: 'c' }))).toBe(false);
    expect(isSidebarHotkey(key({ ctrlKey: true, shiftKey: true }))).toBe(false);
  });
});
