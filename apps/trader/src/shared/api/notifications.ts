import type { SetWebhookInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './context';

/** Read again this often until the live desk pushes them (issue 33); at once when the list is opened. */
export const NOTIFICATIONS_POLL_MS = 15_000;
const NOTIFICATIONS = ['trader', 'notifications'] as const;
const WEBHOOK = ['trader', 'webhook'] as const;
const DELIVERIES = ['trader', 'webhook-deliveries'] as const;

/** The company's notifications and unread count (docs/notifications.md). */
export function useNotifications() {
  const api = useApi();
  return useQuery({ queryKey: NOTIFICATIONS, queryFn: api.notifications, refetchInterval: NOTIFICATIONS_POLL_MS });
}

export function useMarkNotificationsRead() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids?: number[]; all?: boolean }) => api.markNotificationsRead(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS }),
  });
}

export function useWebhook() {
  const api = useApi();
  return useQuery({ queryKey: WEBHOOK, queryFn: api.webhook });
}

export function useSetWebhook() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetWebhookInput) => api.setWebhook(input),
    onSuccess: (saved) => queryClient.setQueryData(WEBHOOK, saved),
  });
}

/** The delivery log, refreshed like the order stream while the page is open. */
export function useWebhookDeliveries() {
  const api = useApi();
  return useQuery({ queryKey: DELIVERIES, queryFn: api.webhookDeliveries, refetchInterval: 5_000 });
}
