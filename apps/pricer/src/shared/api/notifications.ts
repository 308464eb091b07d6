import { serverMessage } from '@pfp/api-client';
import type { MarkNotificationsReadInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './call';
import { customerKeys } from './keys';

/** Read again this often until the live desk pushes them (issue 33); at once when the list is opened. */
export const NOTIFICATIONS_POLL_MS = 15_000;

export const notificationKeys = customerKeys('notifications');

/** The customer's notifications, newest first, and the unread count (docs/notifications.md). */
export const notificationsApi = {
  notifications: (signal?: AbortSignal) => call('notifications', { limit: 50 }, signal),
  markNotificationsRead: (input: MarkNotificationsReadInput) => call('markNotificationsRead', input),
};

/** The customer's notifications and unread count. */
export function useNotifications(userId: number) {
  return useQuery({
    queryKey: notificationKeys(userId).all,
    queryFn: ({ signal }) => notificationsApi.notifications(signal),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
}

export function useMarkNotificationsRead(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkNotificationsReadInput) => notificationsApi.markNotificationsRead(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationKeys(userId).all }),
  });
}

export const notificationsError = (err: unknown) =>
  err ? (serverMessage(err) ?? (err instanceof Error ? err.message : String(err))) : null;
