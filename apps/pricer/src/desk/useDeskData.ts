import { isAuthError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchContractOrders, fetchSnapshot } from '../api';
import { DESK_ORDER_LIMIT, POLL_MS, REFETCH_AFTER_ACTION_MS } from './constants';

/** One retry for a network blip; an auth error ends the session at once. */
const retry = (count: number, error: unknown) => !isAuthError(error) && count < 1;

/**
 * The desk's data: the snapshot (contracts, market data) and the selected contract's orders (the
 * first contract when none is selected or the selected one is gone), both
 * polled every 5 s. A manual refresh pauses the polling while it runs (SPEC §7).
 */
export function useDeskData(userId: number, selectedId: number | undefined) {
  const [refreshing, setRefreshing] = useState(false);
  const interval = refreshing ? false : POLL_MS;

  const snapshot = useQuery({
    queryKey: ['pricer', userId, 'snapshot'],
    queryFn: ({ signal }) => fetchSnapshot(signal),
    refetchInterval: interval,
    retry,
  });
  const contracts = snapshot.data?.contracts ?? [];
  // SPEC §2: the first contract is selected until the customer picks another.
  const contract = contracts.find((c) => c.id === selectedId) ?? contracts[0];
  const contractId = contract?.id;
  const orders = useQuery({
    queryKey: ['pricer', userId, 'orders', contractId],
    queryFn: ({ signal }) => fetchContractOrders(contractId!, DESK_ORDER_LIMIT, signal),
    enabled: contractId !== undefined,
    refetchInterval: interval,
    retry,
  });

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

  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  /** SPEC §7: re-fetch 200 ms after a submit or a cancel. */
  const refetchSoon = useCallback(() => {
    const id = setTimeout(() => {
      timers.current.delete(id);
      void refetchSnapshot();
      if (contractId !== undefined) void refetchOrders();
    }, REFETCH_AFTER_ACTION_MS);
    timers.current.add(id);
  }, [refetchSnapshot, refetchOrders, contractId]);

  return { snapshot, contracts, contract, orders, refreshing, refresh, refetchSoon };
}
