import { NotificationCenter } from '@pfp/ui';
import { notificationsError, useMarkNotificationsRead, useNotifications } from '../shared/api';

/** The desk's bell (docs/notifications.md): the customer's own notifications. */
export function CustomerNotifications({ userId }: { userId: number }) {
  const q = useNotifications(userId);
  const mark = useMarkNotificationsRead(userId);
  return (
    <NotificationCenter
      unread={q.data?.unread_count ?? 0}
      items={q.data?.items}
      error={notificationsError(q.error)}
      onOpen={() => void q.refetch()}
      onMarkRead={(ids) => mark.mutate({ ids })}
      onMarkAll={() => mark.mutate({ all: true })}
    />
  );
}
