import type { MarkNotificationsReadInput, SetWebhookInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** Read again this often until the live desk pushes them (issue 33); at once when the list is opened. */
export const NOTIFICATIONS_POLL_MS = 15_000;
/** The delivery log is refreshed like the order stream while the page is open. */
const DELIVERIES_POLL_MS = 5_000;

export const notificationKeys = traderKeys('notifications');
const webhookKeys = traderKeys('webhook');
const deliveryKeys = traderKeys('webhook-deliveries');

/** The calls of notifications and the webhook (docs/notifications.md). */
export function notificationsApi({ call }: TraderTransport) {
  return {
    notifications: () => call('notifications', { limit: 50 }),
    markNotificationsRead: (input: MarkNotificationsReadInput) => call('markNotificationsRead', input),
    webhook: () => call('webhook', undefined),
    setWebhook: (input: SetWebhookInput) => call('setWebhook', input),
    testWebhook: () => call('testWebhook', undefined),
    webhookDeliveries: () => call.page('webhookDeliveries', { slice_start: 0, slice_end: 50 }),
  };
}

/** The company's notifications and unread count (docs/notifications.md). */
export function useNotifications() {
  const api = useCalls(notificationsApi);
  return useQuery({
    queryKey: notificationKeys.all,
    queryFn: api.notifications,
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
}

export function useMarkNotificationsRead() {
  const api = useCalls(notificationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkNotificationsReadInput) => api.markNotificationsRead(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useWebhook() {
  const api = useCalls(notificationsApi);
  return useQuery({ queryKey: webhookKeys.all, queryFn: api.webhook });
}

export function useSetWebhook() {
  const api = useCalls(notificationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetWebhookInput) => api.setWebhook(input),
    onSuccess: (saved) => queryClient.setQueryData(webhookKeys.all, saved),
  });
}

/** 发送测试消息: sent at once to the saved robot; answers what it said (nothing is queued). */
export function useTestWebhook() {
  const api = useCalls(notificationsApi);
  return useMutation({ mutationFn: () => api.testWebhook() });
}

/** The delivery log, refreshed like the order stream while the page is open. */
export function useWebhookDeliveries() {
  const api = useCalls(notificationsApi);
  return useQuery({ queryKey: deliveryKeys.all, queryFn: api.webhookDeliveries, refetchInterval: DELIVERIES_POLL_MS });
}
