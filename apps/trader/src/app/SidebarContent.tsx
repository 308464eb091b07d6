import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Divider,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { IconAlertTriangle, IconSettings } from '@pfp/ui';
import { Link } from '@pfp/router';
import type { TraderProfile } from '@pfp/contract';
import type { ConnectionState } from '../shared/api';
import type { NavItem } from './nav';
import { can } from '../shared/roles';
import { PortalLinkPanel } from './PortalLinkPanel';
import { TONE } from '../shared/tones';

const t = zh.trader.layout;

export interface SidebarContentProps {
  title: string;
  /** The sheet has the title in its own header. */
  showTitle?: boolean;
  nav: NavItem[];
  pathname: string;
  profile: TraderProfile | null;
  profileError: Error | null;
  connection: { state: ConnectionState; message: string | undefined };
  /** Icon mode (collapsed on a wide screen): icons with tooltips only. */
  compact: boolean;
  origin: string;
  onOpenSettings: () => void;
  onNavigate?: () => void;
}

export function ConnectionIndicator({ state, message }: { state: ConnectionState; message: string | undefined }) {
  const label = state === 'ok' ? t.connectionOk : t.connectionError;
  return (
    <Tooltip label={message ?? label} disabled={!message} openDelay={0}>
      <Badge
        variant="outline"
        color={state === 'ok' ? TONE.success : TONE.danger}
        leftSection={
          <Box
            component="span"
            w={8}
            h={8}
            style={{ borderRadius: '50%', background: state === 'ok' ? '#087f5b' : '#c92a2a' }}
          />
        }
        data-testid="connection-indicator"
        data-state={state}
        aria-label={label}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}

/** SPEC §2 "Layout shell": company header, account badge, connection, navigation and the portal footer. */
export function SidebarContent(props: SidebarContentProps) {
  const { title, showTitle = true, nav, pathname, profile, profileError, connection, compact, origin } = props;
  const { onOpenSettings, onNavigate } = props;
  // The company's settings are the admin's (docs/roles.md): other roles do not see the button.
  const settingsButton = can(profile?.roles, 'saveProfile') ? (
    <Tooltip label={t.settings} openDelay={0}>
      <ActionIcon variant="default" size="lg" aria-label={t.settings} onClick={onOpenSettings}>
        <IconSettings size={18} />
      </ActionIcon>
    </Tooltip>
  ) : null;

  if (compact) {
    return (
      <Stack gap="xs" align="center" py="sm" data-testid="sidebar" data-compact="true">
        {settingsButton}
        <Divider w="100%" />
        <Stack component="nav" aria-label={zh.trader.nav.label} gap="xs" align="center">
          {nav.map((item) => (
            <Tooltip key={item.path} label={navLabel(item)} position="right" openDelay={0}>
              <NavLink
                component={Link}
                to={item.path}
                aria-label={navLabel(item)}
                leftSection={item.icon}
                active={item.path === pathname}
                aria-current={item.path === pathname ? 'page' : undefined}
                w={40}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                rightSection={
                  item.badge ? (
                    <Badge
                      size="xs"
                      circle
                      color="red"
                      variant="filled"
                      aria-hidden
                      style={{ position: 'absolute', top: -4, right: -4 }}
                    >
                      {item.badge}
                    </Badge>
                  ) : undefined
                }
              />
            </Tooltip>
          ))}
        </Stack>
      </Stack>
    );
  }

  const config = profile?.tq_account_config;
  return (
    <Stack gap={0} h="100%" data-testid="sidebar" data-compact="false">
      <Stack gap="xs" p="md">
        <Group justify={showTitle ? 'space-between' : 'flex-end'} wrap="nowrap" align="flex-start">
          {showTitle ? (
            <Title order={2} size="h5">
              {title}
            </Title>
          ) : null}
          {settingsButton}
        </Group>
        {profile ? (
          <Box data-testid="company">
            <Text fw={600} size="sm" component="span">
              {profile.company_name}
            </Text>{' '}
            <Text size="sm" component="span" c="gray.7" data-testid="tenant-id">
              {t.tenantId(profile.tenant_id)}
            </Text>
          </Box>
        ) : profileError ? (
          <Alert color={TONE.danger} variant="light" p="xs" role="alert">
            {t.profileLoadFailed(profileError.message)}
          </Alert>
        ) : (
          <Alert
            color={TONE.warning}
            variant="light"
            p="xs"
            icon={<IconAlertTriangle size={16} />}
            title={t.notConfigured}
            data-testid="not-configured"
          >
            <Text size="xs">{t.notConfiguredHint}</Text>
          </Alert>
        )}
        {config ? (
          <Group gap={6} data-testid="account">
            {config.is_sim ? (
              <Badge color={TONE.warning} variant="outline">
                {t.sim}
              </Badge>
            ) : (
              <>
                <Text size="xs" fw={500}>
                  {config.broker_name}
                </Text>
                <Text size="xs" c="gray.7">
                  {config.futures_account}
                </Text>
              </>
            )}
          </Group>
        ) : null}
        <ConnectionIndicator {...connection} />
      </Stack>
      <Divider />
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Box component="nav" aria-label={zh.trader.nav.label} p="xs">
          {nav.map((item) => (
            <NavLink
              key={item.path}
              component={Link}
              to={item.path}
              label={item.text}
              aria-label={navLabel(item)}
              leftSection={item.icon}
              rightSection={
                item.badge ? (
                  <Badge size="sm" color="red" variant="filled" aria-hidden>
                    {item.badge}
                  </Badge>
                ) : undefined
              }
              active={item.path === pathname}
              aria-current={item.path === pathname ? 'page' : undefined}
              onClick={onNavigate}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          ))}
        </Box>
      </ScrollArea>
      {profile ? (
        <>
          <Divider />
          <Box p="md" component="footer">
            <PortalLinkPanel tenantId={profile.tenant_id} origin={origin} />
          </Box>
        </>
      ) : null}
    </Stack>
  );
}

/** A nav item's name, with its count when it has one (the approvals inbox: 复核，2 条待复核). */
const navLabel = (item: NavItem) => (item.badge ? `${item.text}，${zh.roles.approvals.badge(item.badge)}` : item.text);
