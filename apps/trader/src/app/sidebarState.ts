/** SPEC §9 "Sidebar": the expanded/collapsed state lives in the cookie sidebar_state for 7 days. */
export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 604_800;

/** true = expanded, false = collapsed, null = no cookie (default expanded). */
export function readSidebarCookie(cookie: string): boolean | null {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== SIDEBAR_COOKIE) continue;
    const value = rest.join('=');
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return null;
}

export function sidebarCookie(expanded: boolean): string {
  return `${SIDEBAR_COOKIE}=${expanded}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** Ctrl or Cmd plus b toggles the sidebar (in inputs too, like the original shell). */
export function isSidebarHotkey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>) {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'b';
}
