import { ActionIcon, AppShell, Container, Group, Text, Title, Tooltip } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { IconChartLine, IconFileText, IconHistory, IconLogout } from '@pfp/ui';
import { Link, Outlet, useLocation, useParams } from '@pfp/router';
import { clearSession } from '../shared/session/session';
import { useSession } from '../shared/session/useSession';
import { CustomerNotifications } from './CustomerNotifications';
import { AgreementBanner } from '../shared/agreement/AgreementBanner';

const t = zh.pricer;

/** Header with the company name and the two page buttons (current one highlighted), footer credit. */
export function CustomerLayout() {
  const session = useSession();
  const { tenantId } = useParams();
  const { pathname } = useLocation();
  const pages = [
    { to: `/pricer/${tenantId}/dashboard`, label: t.tradingDesk, icon: <IconChartLine size={20} /> },
    { to: `/pricer/${tenantId}/history`, label: t.history, icon: <IconHistory size={20} /> },
    // docs/statements.md: the statement the customer confirms or disputes
    { to: `/pricer/${tenantId}/statement`, label: zh.statements.nav, icon: <IconFileText size={20} /> },
  ];
  // The history is a wide table (futures price, basis, fixed price, amount …): it takes the screen's
  // width; the desk keeps a readable column.
  const wide = pathname === pages[1]!.to;
  return (
    <AppShell header={{ height: 56 }} footer={{ height: 36 }} padding={{ base: 'xs', sm: 'md' }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Title order={1} size="h4" lineClamp={1} data-testid="company-title">
            {session?.user.company_name || zh.app.customerDefaultTitle}
          </Title>
          <Group gap="xs" wrap="nowrap" component="nav" aria-label={t.navigation}>
            {pages.map((p) => (
              <Tooltip key={p.to} label={p.label}>
                <ActionIcon
                  component={Link}
                  to={p.to}
                  size="lg"
                  variant={pathname === p.to ? 'filled' : 'subtle'}
                  aria-label={p.label}
                  aria-current={pathname === p.to ? 'page' : undefined}
                >
                  {p.icon}
                </ActionIcon>
              </Tooltip>
            ))}
            {session ? <CustomerNotifications userId={session.user.user_id} /> : null}
            <Tooltip label={t.logout}>
              <ActionIcon
                size="lg"
                variant="subtle"
                color="gray"
                aria-label={t.logout}
                onClick={() => clearSession('logout')}
              >
                <IconLogout size={20} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="lg" fluid={wide} px={0}>
          {session ? <AgreementBanner userId={session.user.user_id} /> : null}
          <Outlet />
        </Container>
      </AppShell.Main>
      <AppShell.Footer>
        <Text size="xs" c="dimmed" ta="center" lh="36px">
          {zh.app.vendorCredit}
        </Text>
      </AppShell.Footer>
    </AppShell>
  );
}
