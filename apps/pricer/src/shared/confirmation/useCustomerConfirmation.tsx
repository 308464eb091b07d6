import { serverMessage } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { notify, useConfirmationModal } from '@pfp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { acknowledgeConfirmation, fetchConfirmation, pricerKeys } from '../api';

const t = zh.fixing.confirmation;
const describeError = (error: unknown) => serverMessage(error) ?? t.loadFailed;

/**
 * The customer's 点价确认单 dialog (history and desk): opens a filled order's confirmation, and
 * 确认无误 acknowledges it (issue 29); the customer's lists load again to show it acknowledged.
 */
export function useCustomerConfirmation(userId: number) {
  const queryClient = useQueryClient();
  const acknowledge = useMemo(
    () => ({
      call: acknowledgeConfirmation,
      onDone: (error: unknown) => {
        if (error) {
          notify(serverMessage(error) ?? t.acknowledgeFailed, 'error');
          return;
        }
        notify(t.acknowledgedToast, 'success');
        void queryClient.invalidateQueries({ queryKey: pricerKeys.user(userId) });
      },
    }),
    [queryClient, userId],
  );
  return useConfirmationModal(fetchConfirmation, describeError, acknowledge);
}
