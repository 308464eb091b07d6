import { zh } from '@pfp/i18n';
import { Navigate, Route, Routes } from 'react-router';
import { LayoutShell } from './layout/LayoutShell';
import { PageIntro } from './layout/PageIntro';
import { NAV } from './nav';

const t = zh.trader;

/** The trader console's route tree, mounted by the host at /trader/*. */
export default function TraderApp() {
  return (
    <LayoutShell title={zh.app.traderHeader} nav={NAV}>
      <Routes>
        <Route path="dashboard" element={<PageIntro subtitle={t.dashboardSubtitle} />} />
        <Route path="pricers" element={<PageIntro subtitle={t.pricersSubtitle} />} />
        <Route path="contracts" element={<PageIntro subtitle={t.contractsSubtitle} />} />
        <Route path="*" element={<Navigate to="/trader/dashboard" replace />} />
      </Routes>
    </LayoutShell>
  );
}
