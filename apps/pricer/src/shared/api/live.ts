import { readAgain } from '@pfp/api-client/query';
import { LIVE_VIEWS, type PricerDeskPatch, type Snapshot } from '@pfp/contract';
import { createWsClient } from '@pfp/ws-core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
 * (and the contract's orders and 条件单 are re-read, they changed with it), quotes replace their instruments' market
 * entries. Returns the data version the desk now holds.
 */
export function applyDeskPatch(client: QueryClient, userId: number, patch: PricerDeskPatch) {
  const key = snapshotKeys(userId).all;
  if (patch.snapshot) {
    client.setQueryData<Snapshot>(key, patch.snapshot);
    // Never answered by a first load that went out before the change (readAgain, docs/live.md).
    void readAgain(client, orderKeys(userId).all);
    void readAgain(client, conditionalKeys(userId).all);
    // A notification raises the version too (migration 019): the bell is read again at once.
    void readAgain(client, notificationKeys(userId).all);
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
}

/**
 * The desk's live channel: subscribed to the customer's own desk view over /ws with the session's token. `true` while
 * the pushes arrive; the desk polls (SPEC: every 5 s) only while it is false — the socket down or refused.
 */
export function useLiveDesk(userId: number): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
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
    // Kept by reference by the client: a reconnect resubscribes with the version held, and is sent only what moved.
    const params: Record<string, unknown> = { user_id: userId };
    const onPatch = (patch: PricerDeskPatch | undefined) => {
      if (!patch) return;
      if (patch.ended) {
        // The session ended: the HTTP calls say why (401) and end it.
        setLive(false);
        client.close();
        void queryClient.invalidateQueries({ queryKey: snapshotKeys(userId).all });
        return;
      }
      applyDeskPatch(queryClient, userId, patch);
      if (patch.version !== undefined) params.since = patch.version;
      setLive(true);
    };
    const offState = client.onStateChange((state) => {
      if (state !== 'connected') setLive(false);
    });
    client.connect();
    client
      .subscribeView<PricerDeskPatch>(VIEW_ID, LIVE_VIEWS.pricerDesk, params, onPatch)
      .then(onPatch, () => setLive(false));
    return () => {
      offState();
      client.close();
      setLive(false);
    };
  }, [userId, queryClient]);
  return live;
}
