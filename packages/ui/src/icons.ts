// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient types for the per-icon files, which ship none
/// <reference path="./icons.d.ts" />
/**
 * The icons the apps use, imported one file each: the package's barrel has ~6,000 icons and
 * makes every build parse all of them.
 */
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconChartLine from '@tabler/icons-react/dist/esm/icons/IconChartLine.mjs';
import IconFileText from '@tabler/icons-react/dist/esm/icons/IconFileText.mjs';
import IconHistory from '@tabler/icons-react/dist/esm/icons/IconHistory.mjs';
import IconHome from '@tabler/icons-react/dist/esm/icons/IconHome.mjs';
import IconLayoutDashboard from '@tabler/icons-react/dist/esm/icons/IconLayoutDashboard.mjs';
import IconRefresh from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconSettings from '@tabler/icons-react/dist/esm/icons/IconSettings.mjs';
import IconUsers from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';

export {
  IconArrowLeft,
  IconChartLine,
  IconFileText,
  IconHistory,
  IconHome,
  IconLayoutDashboard,
  IconRefresh,
  IconSearch,
  IconSettings,
  IconUsers,
};
