import {
  ActionIcon,
  Anchor,
  AppShell,
  Breadcrumbs,
  Burger,
  Button,
  Drawer,
  Group,
  Text,
  Title,
  Tooltip,
  useMediaQuery,
} from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconLogout } from '@pfp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation } from '@pfp/router';
import type { ProfileInput } from '@pfp/contract';
import { useAuthSnapshot, useTraderAuth } from '../auth/AuthContext';
import { SettingsDialog } from '../profile/SettingsDialog';
import { useApprovalRequests, useConnectionStatus, useProfile, useSaveProfile } from '../shared/api';
import { ConsoleContext, type ConsoleContextValue } from './ConsoleContext';
import type { NavItem } from './nav';
import { SidebarContent } from './SidebarContent';
import { can } from '../shared/roles';
import { TraderNotifications } from '../notifications/TraderNotifications';
import { isSidebarHotkey, readSidebarCookie, sidebarCookie } from './sidebarState';

const t = zh.trader.layout;

/** SPEC §9 "Sidebar": 16rem wide, 3rem in icon mode, an 18rem sheet below the 768 px breakpoint. */
const SIDEBAR_WIDTH = '16rem';
const SIDEBAR_ICON_WIDTH = '3rem';
const SHEET_WIDTH = '18rem';
export const MOBILE_QUERY = '(max-width: 767.98px)';

/**
 * SPEC §2 "Layout shell": a title, a navigation list and children. The header title is the text of
 * the item whose path is the current location, and that item is highlighted.
 */
export function LayoutShell({ title, nav, children }: { title: string; nav: NavItem[]; children: ReactNode }) {
  const { pathname } = useLocation();
  const current = nav.find((item) => item.path === pathname);
  const isMobile = useMediaQuery(MOBILE_QUERY) ?? false;
  const [expanded, setExpanded] = useState(() => readSidebarCookie(document.cookie) ?? true);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsKey, setSettingsKey] = useState(0);

  const queryClient = useQueryClient();
  const { mutateAsync: saveProfileAsync } = useSaveProfile();
  const auth = useTraderAuth();
  const { trader } = useAuthSnapshot();
  const { profile, loading: profileLoading, error: profileError } = useProfile();
  const connection = useConnectionStatus(settingsOpen);

  const toggleSidebar = () => {
    if (isMobile) {
      setSheetOpen((open) => !open);
      return;
    }
    const next = !expanded;
    setExpanded(next);
    document.cookie = sidebarCookie(next);
  };

  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (!isSidebarHotkey(event)) return;
    event.preventDefault();
    toggleSidebar();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const openSettings = useCallback(() => {
    // A new key remounts the dialog: the form is preloaded from the profile with a blank password.
    setSettingsKey((key) => key + 1);
    setSettingsOpen(true);
    setSheetOpen(false);
  }, []);

  const saveProfile = async (input: ProfileInput) => {
    await saveProfileAsync(input);
  };

  const signOut = () => {
    queryClient.clear();
    void auth.signOut();
  };

  const consoleValue = useMemo<ConsoleContextValue>(
    () => ({ profile, profileLoading, profileError, openSettings }),
    [profile, profileLoading, profileError, openSettings],
  );

  // Only what the staff member's roles may do, and the approvals inbox's count (docs/roles.md).
  const approvals = useApprovalRequests(!!profile && can(profile.roles, 'approvalRequests'));
  const pendingForMe = approvals.data?.pending_for_me ?? 0;
  const shown = useMemo(
    () =>
      nav
        .filter((item) => !item.call || can(profile?.roles, item.call))
        .map((item) => (item.call === 'approvalRequests' ? { ...item, badge: pendingForMe } : item)),
    [nav, profile?.roles, pendingForMe],
  );

  const sidebar = (compact: boolean, onNavigate?: () => void) => (
    <SidebarContent
      title={title}
      showTitle={!onNavigate}
      nav={shown}
      pathname={pathname}
      profile={profile}
      profileError={profileError}
      connection={connection}
      compact={compact}
      origin={window.location.origin}
      onOpenSettings={openSettings}
      {...(onNavigate ? { onNavigate } : {})}
    />
  );

  const traderName = trader?.name || trader?.preferred_username || '';

  return (
    <ConsoleContext.Provider value={consoleValue}>
      <AppShell
        header={{ height: 60 }}
        navbar={{
          width: expanded ? SIDEBAR_WIDTH : SIDEBAR_ICON_WIDTH,
          breakpoint: 768,
          collapsed: { mobile: true, desktop: false },
        }}
        padding="md"
        data-sidebar-state={
          isMobile ? (sheetOpen ? 'sheet-open' : 'sheet-closed') : expanded ? 'expanded' : 'collapsed'
        }
        data-testid="trader-shell"
      >
        <AppShell.Header>
          <Group h="100%" px="md" gap="sm" wrap="nowrap" justify="space-between">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              {isMobile ? (
                <Burger opened={sheetOpen} onClick={toggleSidebar} size="sm" aria-label={t.openMenu} />
              ) : (
                <Tooltip label={`${t.toggleSidebar} (Ctrl+B)`} openDelay={700}>
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    size="lg"
                    onClick={toggleSidebar}
                    aria-label={t.toggleSidebar}
                    aria-expanded={expanded}
                  >
                    {expanded ? <IconLayoutSidebarLeftCollapse size={20} /> : <IconLayoutSidebarLeftExpand size={20} />}
                  </ActionIcon>
                </Tooltip>
              )}
              <div style={{ minWidth: 0 }}>
                <Breadcrumbs separatorMargin={6} fz="xs" data-testid="breadcrumbs">
                  <Anchor component={Link} to="/trader" size="xs">
                    {zh.trader.breadcrumbRoot}
                  </Anchor>
                  <Text size="xs" c="gray.7" aria-current="page">
                    {current?.text ?? ''}
                  </Text>
                </Breadcrumbs>
                <Title order={1} size="h4" lineClamp={1} data-testid="page-title">
                  {current?.text ?? ''}
                </Title>
              </div>
            </Group>
            <Group gap="xs" wrap="nowrap">
              {/* A trader without a company yet has no notifications (the calls would answer 403). */}
              {profile ? <TraderNotifications /> : null}
              {traderName ? (
                <Text size="sm" fw={500} visibleFrom="sm" data-testid="trader-name" title={trader?.email || undefined}>
                  {traderName}
                </Text>
              ) : null}
              {isMobile ? (
                <ActionIcon variant="default" size="lg" onClick={signOut} aria-label={zh.trader.auth.signOut}>
                  <IconLogout size={18} />
                </ActionIcon>
              ) : (
                <Button variant="default" size="xs" leftSection={<IconLogout size={16} />} onClick={signOut}>
                  {zh.trader.auth.signOut}
                </Button>
              )}
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>{isMobile ? null : sidebar(!expanded)}</AppShell.Navbar>
        <AppShell.Main>{children}</AppShell.Main>
      </AppShell>
      <Drawer
        opened={isMobile && sheetOpen}
        onClose={() => setSheetOpen(false)}
        size={SHEET_WIDTH}
        styles={{ body: { padding: 0 } }}
        title={title}
        closeButtonProps={{ 'aria-label': zh.shell.close }}
        data-testid="sidebar-sheet"
      >
        {sidebar(false, () => setSheetOpen(false))}
      </Drawer>
      <SettingsDialog
        key={settingsKey}
        opened={settingsOpen}
        profile={profile}
        onClose={() => setSettingsOpen(false)}
        onSave={saveProfile}
      />
    </ConsoleContext.Provider>
  );
}
