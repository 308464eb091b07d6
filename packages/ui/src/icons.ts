// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient types for the per-icon files, which ship none
/// <reference path="./icons.d.ts" />
/**
 * The icons the apps use, imported one file each: the package's barrel has ~6,000 icons and
 * makes every build parse all of them.
 */
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconChartLine from '@tabler/icons-react/dist/esm/icons/IconChartLine.mjs';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconFileText from '@tabler/icons-react/dist/esm/icons/IconFileText.mjs';
import IconFilter from '@tabler/icons-react/dist/esm/icons/IconFilter.mjs';
import IconHistory from '@tabler/icons-react/dist/esm/icons/IconHistory.mjs';
import IconHome from '@tabler/icons-react/dist/esm/icons/IconHome.mjs';
import IconLayoutDashboard from '@tabler/icons-react/dist/esm/icons/IconLayoutDashboard.mjs';
import IconLogout from '@tabler/icons-react/dist/esm/icons/IconLogout.mjs';
import IconRefresh from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconSettings from '@tabler/icons-react/dist/esm/icons/IconSettings.mjs';
import IconUsers from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconCopy from '@tabler/icons-react/dist/esm/icons/IconCopy.mjs';
import IconEdit from '@tabler/icons-react/dist/esm/icons/IconEdit.mjs';
import IconKey from '@tabler/icons-react/dist/esm/icons/IconKey.mjs';
import IconLayoutSidebarLeftCollapse from '@tabler/icons-react/dist/esm/icons/IconLayoutSidebarLeftCollapse.mjs';
import IconLayoutSidebarLeftExpand from '@tabler/icons-react/dist/esm/icons/IconLayoutSidebarLeftExpand.mjs';
import IconPlayerPause from '@tabler/icons-react/dist/esm/icons/IconPlayerPause.mjs';
import IconPlayerPlay from '@tabler/icons-react/dist/esm/icons/IconPlayerPlay.mjs';
import IconPlugConnected from '@tabler/icons-react/dist/esm/icons/IconPlugConnected.mjs';
import IconPlugConnectedX from '@tabler/icons-react/dist/esm/icons/IconPlugConnectedX.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconUserPlus from '@tabler/icons-react/dist/esm/icons/IconUserPlus.mjs';
import IconCoin from '@tabler/icons-react/dist/esm/icons/IconCoin.mjs';
import IconCalculator from '@tabler/icons-react/dist/esm/icons/IconCalculator.mjs';
import IconChecklist from '@tabler/icons-react/dist/esm/icons/IconChecklist.mjs';
import IconUserShield from '@tabler/icons-react/dist/esm/icons/IconUserShield.mjs';
import IconBell from '@tabler/icons-react/dist/esm/icons/IconBell.mjs';
import IconSignature from '@tabler/icons-react/dist/esm/icons/IconSignature.mjs';
import IconArrowsExchange from '@tabler/icons-react/dist/esm/icons/IconArrowsExchange.mjs';

export {
  IconArrowLeft,
  IconChartLine,
  IconChevronDown,
  IconChevronUp,
  IconFileText,
  IconFilter,
  IconHistory,
  IconHome,
  IconLayoutDashboard,
  IconLogout,
  IconRefresh,
  IconSearch,
  IconSettings,
  IconUsers,
  IconAlertTriangle,
  IconCopy,
  IconEdit,
  IconKey,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlugConnected,
  IconPlugConnectedX,
  IconPlus,
  IconUserPlus,
  IconCoin,
  IconBell,
  IconSignature,
  IconChecklist,
  IconUserShield,
  IconArrowsExchange,
  IconCalculator,
};
