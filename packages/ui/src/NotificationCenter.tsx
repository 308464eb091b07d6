import { ActionIcon, Badge, Button, Drawer, Group, Paper, Stack, Text, Tooltip, useMediaQuery } from '@pfp/mantine';
import type { Notification } from '@pfp/contract';
import { formatDateTime, zh } from '@pfp/i18n';
import { useState } from 'react';
import { IconBell } from './icons';

const t = zh.notifications;

export interface NotificationCenterProps {
  unread: number;
  /** Newest first; undefined while the first read is under way. */
  items: Notification[] | undefined;
  /** The last read failed (the bell keeps the last count). */
  error?: string | null | undefined;
  onMarkRead(ids: number[]): void;
  onMarkAll(): void;
  /** The list was opened: read it again now rather than at the next poll. */
  onOpen?(): void;
}

/**
 * The bell with its unread count and the notification list (docs/notifications.md): a drawer from the
 * right, from the bottom on a phone; newest first, times in Beijing time, mark one or all read.
 */
export function NotificationCenter({ unread, items, error, onMarkRead, onMarkAll, onOpen }: NotificationCenterProps) {
  const [opened, setOpened] = useState(false);
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <>
      <Tooltip label={t.title}>
        <ActionIcon
          size="lg"
          variant="subtle"
          color="gray.8"
          aria-label={t.bell(unread)}
          data-testid="notification-bell"
          style={{ position: 'relative', overflow: 'visible' }}
          onClick={() => {
            setOpened(true);
            onOpen?.();
          }}
        >
          <IconBell size={20} />
          {unread > 0 ? (
            <Badge
              size="xs"
              circle={unread < 10}
              color="red"
              aria-hidden
              data-testid="notification-count"
              style={{ position: 'absolute', top: -4, right: -6, pointerEvents: 'none' }}
            >
              {unread > 99 ? '99+' : unread}
            </Badge>
          ) : null}
        </ActionIcon>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={() => setOpened(false)}
        title={t.title}
        position={phone ? 'bottom' : 'right'}
        size={phone ? '85%' : 'md'}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" data-testid="notification-unread">
              {t.unreadCount(unread)}
            </Text>
            <Button size="xs" variant="light" disabled={unread === 0} onClick={onMarkAll}>
              {t.markAllRead}
            </Button>
          </Group>
          {error ? (
            <Text size="sm" c="red.8" role="alert">
              {t.loadFailed(error)}
            </Text>
          ) : null}
          {items && items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t.empty}
            </Text>
          ) : null}
          <Stack gap="xs" component="ul" aria-label={t.title} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {(items ?? []).map((n) => (
              <Paper key={n.id} component="li" withBorder p="sm" radius="sm" bg={n.read ? undefined : 'blue.0'}>
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Text size="sm" fw={n.read ? 500 : 700}>
                    {n.title}
                  </Text>
                  {n.read ? null : (
                    <Badge size="sm" variant="light" color="blue">
                      {t.unread}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" mt={4}>
                  {n.text}
                </Text>
                <Group justify="space-between" mt={6} wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    {formatDateTime(n.created_at, true)}
                  </Text>
                  {n.read ? null : (
                    <Button size="compact-xs" variant="subtle" onClick={() => onMarkRead([n.id])}>
                      {t.markRead}
                    </Button>
                  )}
                </Group>
              </Paper>
            ))}
          </Stack>
        </Stack>
      </Drawer>
    </>
  );
}
