import { serverMessage } from '@pfp/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pricerApi } from './client';
import { pricerKeys } from './keys';

/** Read again this often until the live desk pushes them (issue 33); at once when the list is opened. */
export const NOTIFICATIONS_POLL_MS = 15_000;
const key = pricerKeys.notifications;

/** The customer's notifications and unread count (docs/notifications.md). */
export function useNotifications(userId: number) {
  return useQuery({
    queryKey: key(userId),
    queryFn: ({ signal }) => pricerApi.notifications(signal),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
}

export function useMarkNotificationsRead(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids?: number[]; all?: boolean }) => pricerApi.markNotificationsRead(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key(userId) }),
  });
}

export const notificationsError = (err: unknown) =>
  err ? (serverMessage(err) ?? (err instanceof Error ? err.message : String(err))) : null;
