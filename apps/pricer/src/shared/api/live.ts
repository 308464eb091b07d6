import { readAgain, setPushed } from '@pfp/api-client/query';
import { LIVE_VIEWS, type PricerDeskPatch, type Snapshot } from '@pfp/contract';
import { createWsClient } from '@pfp/ws-core';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { readSession } from '../session/session';
import { conditionalKeys } from './conditional';
import { orderKeys, snapshotKeys } from './desk';
import { notificationKeys } from './notifications';

const VIEW_ID = 'desk';

/** The page's /ws address (same origin as the app). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/**
 * Applies one pushed patch of the live desk to the query cache (docs/live.md): a snapshot replaces the polled one
 * (keeping its orders — the desk reads the open contract's, pushed beside it — and the signed-in person), the open contract's orders and 条件单 and
 * the bell replace their queries' data — what the desk shows, with no read again — quotes replace their instruments'
 * market entries, and an account (marked to a tick) the snapshot's account. Lists the push does not carry (another
 * contract's, every 条件单) are marked stale, or read again when the desk has no contract open yet.
 */
export function applyDeskPatch(client: QueryClient, userId: number, patch: PricerDeskPatch, contractId?: number) {
  const key = snapshotKeys(userId).all;
  if (patch.snapshot) {
    const desk = patch.snapshot;
    // Who is signed in is this session's, not the customer's desk's (one push goes to all its persons): kept as read.
    client.setQueryData<Snapshot>(
      key,
      (old) =>
        ({ ...desk, orders: old?.orders ?? [], ...(old && 'person' in old ? { person: old.person } : {}) }) as Snapshot,
    );
  }
  if (contractId !== undefined) {
    if (patch.orders) void setPushed(client, orderKeys(userId).of(contractId), patch.orders);
    if (patch.conditionals) void setPushed(client, conditionalKeys(userId).of(contractId), patch.conditionals);
  }
  if (patch.notifications) void setPushed(client, notificationKeys(userId).all, patch.notifications);
  if (patch.snapshot) {
    const carried = new Set<string>(
      contractId !== undefined && patch.orders
        ? [orderKeys(userId).of(contractId), conditionalKeys(userId).of(contractId)].map((k) => JSON.stringify(k))
        : [],
    );
    for (const lists of [orderKeys(userId).all, conditionalKeys(userId).all]) {
      if (carried.size === 0) {
        // Never answered by a first load that went out before the change (readAgain, docs/live.md).
        void readAgain(client, lists);
      } else {
        const stale = (q: { queryKey: QueryKey }) => !carried.has(JSON.stringify(q.queryKey));
        void client.invalidateQueries({ queryKey: lists, predicate: stale, refetchType: 'none' });
      }
    }
  }
  if (patch.quotes) {
    client.setQueryData<Snapshot>(key, (old) => {
      if (!old) return old;
      const market_data = { ...old.market_data };
      let at = Date.parse(old.timestamp);
      for (const [symbol, { tick_time, ...entry }] of Object.entries(patch.quotes!)) {
        market_data[symbol] = entry;
        at = Math.max(at, tick_time);
      }
      // The reference price's 更新于 is the time of the tick it comes from.
      return { ...old, market_data, timestamp: new Date(at).toISOString() };
    });
  }
  // After the snapshot: the account marked to the latest tick (floating P/L, available, the call; issue 41).
  if (patch.account) {
    const account = patch.account;
    client.setQueryData<Snapshot>(key, (old) => (old ? { ...old, account } : old));
  }
}

/**
 * The desk's live channel: subscribed to the customer's own desk view over /ws with the session's token. `open(id)`
 * names the contract open on the desk: its latest `limit` orders and 条件单 are pushed with every change (a new
 * contract is a new subscription from the version held, so the snapshot is not sent again). `live` is true while
 * the pushes arrive; the desk polls (SPEC: every 5 s) only while it is false — the socket down or refused.
 */
export function useLiveDesk(userId: number, limit: number) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const channel = useRef<{ subscribe: (contractId: number | undefined) => void } | null>(null);
  const contract = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!userId || typeof WebSocket === 'undefined') return;
    const client = createWsClient({
      url: liveUrl(),
      token: () => readSession()?.token,
      // The next peek at once (held by the server until something changes): a fill right after a tick is not late.
      peekDelayMs: 0,
      maxReconnectAttempts: 1_000,
      reconnectMaxMs: 10_000,
      logger: { warn: () => {}, error: (...args: unknown[]) => console.error(...args) },
    });
    // The data version held, across this connection's subscriptions.
    let since: string | undefined;
    let subscription = 0;
    const subscribe = (contractId: number | undefined) => {
      const mine = ++subscription;
      // Kept by reference by the client: a reconnect resubscribes with the version held, and is sent only what moved.
      const params: Record<string, unknown> = { user_id: userId };
      if (since !== undefined) params.since = since;
      if (contractId !== undefined) Object.assign(params, { contract_id: contractId, limit });
      const onPatch = (patch: PricerDeskPatch | undefined) => {
        if (!patch || mine !== subscription) return;
        if (patch.ended) {
          // The session ended: the HTTP calls say why (401) and end it.
          setLive(false);
          client.close();
          void queryClient.invalidateQueries({ queryKey: snapshotKeys(userId).all });
          return;
        }
        applyDeskPatch(queryClient, userId, patch, contractId);
        if (patch.version !== undefined) params.since = since = patch.version;
        setLive(true);
      };
      void client
        .unsubscribeView(VIEW_ID)
        .then(() => client.subscribeView<PricerDeskPatch>(VIEW_ID, LIVE_VIEWS.pricerDesk, params, onPatch))
        .then(onPatch, () => {
          if (mine === subscription) setLive(false);
        });
    };
    const offState = client.onStateChange((state) => {
      if (state !== 'connected') setLive(false);
    });
    client.connect();
    subscribe(contract.current);
    channel.current = { subscribe };
    return () => {
      channel.current = null;
      offState();
      client.close();
      setLive(false);
    };
  }, [userId, limit, queryClient]);
  /** The contract open on the desk (undefined: none yet). */
  const open = useCallback((contractId: number | undefined) => {
    if (contract.current === contractId) return;
    contract.current = contractId;
    channel.current?.subscribe(contractId);
  }, []);
  return { live, open };
}
