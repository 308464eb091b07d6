import {
  IconArrowsExchange,
  IconBell,
  IconSignature,
  IconChartLine,
  IconChecklist,
  IconUserShield,
  IconCoin,
  IconCalculator,
  IconFileText,
  IconFilter,
  IconHistory,
  IconLayoutDashboard,
  IconUsers,
} from '@pfp/ui';
import { zh } from '@pfp/i18n';
import type { ReactNode } from 'react';
import type { TraderCallName } from '../shared/roles';

export interface NavItem {
  path: string;
  text: string;
  icon: ReactNode;
  /** The call the page stands on: the item is shown only to roles that may make it (docs/roles.md). */
  call?: TraderCallName;
  /** A count beside the item (the approvals inbox's pending requests). */
  badge?: number;
}

/** SPEC §2 "Trader console" routes. */
export const NAV: NavItem[] = [
  { path: '/trader/dashboard', text: zh.trader.nav.dashboard, icon: <IconLayoutDashboard size={18} /> },
  { path: '/trader/pricers', text: zh.trader.nav.pricers, icon: <IconUsers size={18} /> },
  { path: '/trader/contracts', text: zh.trader.nav.contracts, icon: <IconFileText size={18} /> },
  // docs/fixing.md: the business pages beside the spec's.
  { path: '/trader/exposure', text: zh.fixing.exposure.nav, icon: <IconChartLine size={18} /> },
  { path: '/trader/audit', text: zh.fixing.audit.nav, icon: <IconHistory size={18} />, call: 'auditLog' },
  // docs/conditional-orders.md
  { path: '/trader/conditional', text: zh.conditional.nav, icon: <IconFilter size={18} /> },
  // issue 42 item 3: the customers' 转月 applications (docs/fixing.md)
  { path: '/trader/roll-applications', text: zh.rollApplications.console.nav, icon: <IconArrowsExchange size={18} /> },
  // 含权报价 (docs/pricing.md)
  {
    path: '/trader/pricing',
    text: zh.structurePricing.nav,
    icon: <IconCalculator size={18} />,
    call: 'priceStructure',
  },
  // docs/margin.md
  { path: '/trader/margin', text: zh.margin.nav, icon: <IconCoin size={18} /> },
  // docs/statements.md
  { path: '/trader/statements', text: zh.statements.nav, icon: <IconFileText size={18} /> },
  // docs/notifications.md
  { path: '/trader/notifications', text: zh.notifications.webhook.nav, icon: <IconBell size={18} />, call: 'webhook' },
  // docs/agreement.md
  { path: '/trader/agreement', text: zh.agreement.console.nav, icon: <IconSignature size={18} />, call: 'agreements' },
  // docs/roles.md
  {
    path: '/trader/approvals',
    text: zh.roles.approvals.nav,
    icon: <IconChecklist size={18} />,
    call: 'approvalRequests',
  },
  { path: '/trader/staff', text: zh.roles.staff.nav, icon: <IconUserShield size={18} />, call: 'staff' },
];
