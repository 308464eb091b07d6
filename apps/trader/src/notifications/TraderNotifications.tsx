import { NotificationCenter } from '@pfp/ui';
import { errorText, useMarkNotificationsRead, useNotifications } from '../shared/api';

/** The console header's bell (docs/notifications.md): the company's notifications. */
export function TraderNotifications() {
  const q = useNotifications();
  const mark = useMarkNotificationsRead();
  return (
    <NotificationCenter
      unread={q.data?.unread_count ?? 0}
      items={q.data?.items}
      error={q.isError ? errorText(q.error) : null}
      onOpen={() => void q.refetch()}
      onMarkRead={(ids) => mark.mutate({ ids })}
      onMarkAll={() => mark.mutate({ all: true })}
    />
  );
}
