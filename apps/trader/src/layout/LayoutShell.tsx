import { Anchor, AppShell, Breadcrumbs, Burger, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { zh } from '@pfp/i18n';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { NavItem } from '../nav';

/**
 * SPEC "Layout shell": a title, a navigation list and children; the header title is the text of
 * the item whose path is the current location, and that item is highlighted.
 */
export function LayoutShell({ title, nav, children }: { title: string; nav: NavItem[]; children: ReactNode }) {
  const { pathname } = useLocation();
  const [opened, { toggle }] = useDisclosure();
  const current = nav.find((item) => item.path === pathname);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 256, breakpoint: 768, collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm">
          <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="菜单" />
          <Breadcrumbs>
            <Anchor component={Link} to="/trader">
              {zh.trader.breadcrumbRoot}
            </Anchor>
            <Text>{current?.text ?? ''}</Text>
          </Breadcrumbs>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Title order={2} size="h4" mb="sm">
          {title}
        </Title>
        {nav.map((item) => (
          <NavLink
            key={item.path}
            component={Link}
            to={item.path}
            label={item.text}
            leftSection={item.icon}
            active={item.path === pathname}
            onClick={() => opened && toggle()}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Title order={1} size="h3" mb="md" data-testid="page-title">
          {current?.text}
        </Title>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
