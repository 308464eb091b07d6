import { readAgain } from '@pfp/api-client/query';
import { LIVE_VIEWS, type TraderDeskPatch } from '@pfp/contract';
import { createWsClient } from '@pfp/ws-core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { conditionalKeys } from './conditional';
import { contractKeys } from './contracts';
import { exposureKeys } from './fixing';
import { accountKeys } from './margin';
import { notificationKeys } from './notifications';
import { orderKeys } from './orders';

/** What a change of the company's orders and contracts moves: read again at once (docs/live.md). */
const MOVED = [
  orderKeys.all,
  contractKeys.all,
  exposureKeys.all,
  conditionalKeys.all,
  accountKeys.all,
  notificationKeys.all,
] as const;

/**
 * The console's live channel: the company's data version over /ws (trader_desk). When it moves, the order stream,
 * the dashboard counts and the exposure are read again at once instead of at their next poll; the polls stay as
 * they are (the fallback while the socket is down).
 */
export function useLiveConsole(getToken: () => Promise<string | null | undefined>) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let token: string | null | undefined;
    let closed = false;
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const client = createWsClient({
      url: `${scheme}://${window.location.host}/ws`,
      token: () => token,
      maxReconnectAttempts: 1_000,
      reconnectMaxMs: 10_000,
      logger: { warn: () => {}, error: () => {} },
    });
    const params: Record<string, unknown> = {};
    let held: string | undefined;
    const onPatch = (patch: TraderDeskPatch | undefined) => {
      if (patch?.version === undefined) return;
      params.since = patch.version;
      // Also on the subscription's first answer: the page's first reads went out before it, and a change made
      // in between is already in this version, so no later one would announce it.
      // readAgain: a first load still in flight may have been answered before the change (docs/live.md).
      if (held !== patch.version) for (const queryKey of MOVED) void readAgain(queryClient, queryKey);
      held = patch.version;
    };
    // A fresh access token for every (re)connect: the upgrade is where it is checked.
    const offState = client.onStateChange((state) => {
      if (state === 'reconnecting') void getToken().then((t) => (token = t));
    });
    void getToken().then((t) => {
      if (closed) return;
      token = t;
      client.connect();
      client.subscribeView<TraderDeskPatch>('console', LIVE_VIEWS.traderDesk, params, onPatch).then(onPatch, () => {});
    });
    return () => {
      closed = true;
      offState();
      client.close();
    };
  }, [getToken, queryClient]);
}
