import { useViewportSize } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { AppToaster } from '@pfp/ui';
import { useEffect } from 'react';
import { Outlet, useLocation } from '@pfp/router';
import { documentTitle, layoutClass, screenClass } from './classes';

/** The thin shell around every remote: title, layout classes and the page's one toaster. */
export function Shell() {
  const { pathname } = useLocation();
  const { width } = useViewportSize();
  const layout = layoutClass(pathname);
  const screen = screenClass(width || window.innerWidth);

  useEffect(() => {
    document.title = documentTitle(pathname, { app: zh.app.title, volatility: zh.app.volatilityTitle });
  }, [pathname]);

  return (
    <div className={`app-layout ${layout} ${screen}`} data-testid="app-layout">
      <AppToaster variant={layout === 'volatility-layout' ? 'rich' : 'default'} />
      <Outlet />
    </div>
  );
}
