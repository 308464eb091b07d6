import { isAuthError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useContractOrders, useLiveDesk, useSnapshot } from '../shared/api';
import { DESK_ORDER_LIMIT } from './constants';

/**
 * The desk's data: the snapshot (contracts, market data) and the selected contract's orders (the
 * first contract when none is selected or the selected one is gone). Pushed over the live channel (docs/live.md);
 * while it is down both are polled every 5 s. A manual refresh pauses the polling while it runs (SPEC §7).
 */
export function useDeskData(userId: number, selectedId: number | undefined) {
  const [refreshing, setRefreshing] = useState(false);

  const { live, open } = useLiveDesk(userId, DESK_ORDER_LIMIT);
  const poll = !refreshing && !live;
  const snapshot = useSnapshot(userId, poll);
  const contracts = snapshot.data?.contracts ?? [];
  // SPEC §2: the first contract is selected until the customer picks another.
  const contract = contracts.find((c) => c.id === selectedId) ?? contracts[0];
  const contractId = contract?.id;
  // The live channel pushes the open contract's orders and 条件单 (docs/live.md).
  useEffect(() => open(contractId), [open, contractId]);
  const orders = useContractOrders(userId, contractId, DESK_ORDER_LIMIT, poll);

  // SPEC §8: 订单数据加载失败 once per failure streak, not on every 5 s poll.
  const failing = (snapshot.isError && !isAuthError(snapshot.error)) || (orders.isError && !isAuthError(orders.error));
  const wasFailing = useRef(false);
  useEffect(() => {
    if (failing && !wasFailing.current) notify(zh.pricer.orderDataLoadFailed, 'error');
    wasFailing.current = failing;
  }, [failing]);

  const { refetch: refetchSnapshot } = snapshot;
  const { refetch: refetchOrders } = orders;
  const refresh = useCallback(async () => {
    const wasAlreadyFailing = wasFailing.current;
    setRefreshing(true);
    try {
      const results = await Promise.all([refetchSnapshot(), contractId !== undefined ? refetchOrders() : undefined]);
      const failed = results.some((r) => r?.isError && !isAuthError(r.error));
      if (!failed) notify(zh.pricer.dataRefreshed, 'success');
      // A new failure streak is announced by the effect above; an ongoing one only here.
      else if (wasAlreadyFailing) notify(zh.pricer.orderDataLoadFailed, 'error');
    } finally {
      setRefreshing(false);
    }
  }, [refetchSnapshot, refetchOrders, contractId]);

  return { snapshot, contracts, contract, orders, refreshing, refresh, poll };
}
