/** SPEC §2 "Layout classes": by path prefix and by viewport width. */
export type LayoutClass = 'trader-layout' | 'volatility-layout' | 'pricer-layout' | 'default-layout';
export type ScreenClass = 'screen-x-small' | 'screen-small' | 'screen-medium' | 'screen-large';

export function layoutClass(pathname: string): LayoutClass {
  if (pathname === '/trader' || pathname.startsWith('/trader/')) return 'trader-layout';
  if (pathname === '/volatility-surface' || pathname.startsWith('/volatility-surface/')) return 'volatility-layout';
  const [first, second] = pathname.split('/').filter((_, i) => i > 0);
  if (first === 'pricer' && second) return 'pricer-layout';
  return 'default-layout';
}

export function screenClass(width: number): ScreenClass {
  if (width < 600) return 'screen-x-small';
  if (width < 960) return 'screen-small';
  if (width < 1280) return 'screen-medium';
  return 'screen-large';
}

export function documentTitle(pathname: string, titles: { app: string; volatility: string }): string {
  return layoutClass(pathname) === 'volatility-layout' ? titles.volatility : titles.app;
}
