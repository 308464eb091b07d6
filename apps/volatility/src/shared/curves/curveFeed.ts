import type { VOLATILITY_VIEW, VolatilityParams } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import type { WsClient, WsState } from '@pfp/ws-core';
import { CurveStore } from './curveStore';
import type { CurveType } from './curveTypes';

/** SPEC §7: the one view of the page, its name and data source. */
export const VIEW_ID = 'volatility-curves-view';
export const VIEW_NAME: (typeof VOLATILITY_VIEW)['viewName'] = 'volatility-curves-view';
export const DATA_SOURCE: (typeof VOLATILITY_VIEW)['dataSource'] = 'volatility_curves';

/** SPEC §4 chart states. */
export type FeedStatus = 'empty' | 'loading' | 'error' | 'data';

export interface FeedSnapshot {
  status: FeedStatus;
  /** The error text (only with status 'error'). */
  message: string;
  /** The store's version: rises when a point changed or a curve is new. */
  version: number;
}

const t = zh.volatility;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** subscribe_view parameters for the selected future and curve types. */
export function subscriptionParams(
  future: string,
  types: readonly CurveType[],
): { data_source: string; params: VolatilityParams } {
  return {
    data_source: DATA_SOURCE,
    params: {
      items: types.map((c) => ({ symbol: future, option_type: c.optionType, price_type: c.priceType })),
    },
  };
}

/**
 * The page's data flow (SPEC §4), without React: a selection change drops the curves outside it,
 * unsubscribes the view and subscribes it again; pushes merge into the store; the WebSocket's
 * state drives the error display. Leaving (stop) or an empty selection unsubscribes and closes
 * the connection, which stops the peek polling.
 *
 * When the connection drops, the view is forgotten locally and subscribed afresh once the
 * connection is back, so a failed re-subscription surfaces as an error instead of silence.
 */
export class CurveFeed {
  readonly store: CurveStore;
  private snapshot: FeedSnapshot = { status: 'empty', message: '', version: 0 };
  private readonly listeners = new Set<() => void>();
  private selection: { future: string; types: readonly CurveType[] } | null = null;
  /** Bumped whenever earlier subscription callbacks must be ignored. */
  private generation = 0;
  /** The connection went away while a selection was active; subscribe again when it is back. */
  private dropped = false;
  private offState: (() => void) | undefined;

  constructor(
    private readonly client: WsClient,
    warn: (...args: unknown[]) => void = console.warn,
  ) {
    this.store = new CurveStore(warn);
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): FeedSnapshot => this.snapshot;

  select(future: string | null, types: readonly CurveType[]): void {
    this.generation++;
    this.store.select(future, types);
    void this.client.unsubscribeView(VIEW_ID);
    this.dropped = false;
    if (!future || types.length === 0) {
      this.selection = null;
      this.store.clear();
      this.client.close();
      this.emit('empty');
      return;
    }
    this.selection = { future, types: [...types] };
    this.offState ??= this.client.onStateChange((state) => this.onState(state));
    this.emit('loading');
    this.open();
  }

  /** Subscribe again after an error (e.g. the reconnect attempts ran out). */
  retry(): void {
    if (!this.selection) return;
    this.generation++;
    void this.client.unsubscribeView(VIEW_ID);
    this.dropped = false;
    this.emit('loading');
    this.open();
  }

  /** Leaving the page: unsubscribe, stop polling, close. */
  stop(): void {
    this.generation++;
    this.selection = null;
    this.dropped = false;
    this.offState?.();
    this.offState = undefined;
    void this.client.unsubscribeView(VIEW_ID);
    this.client.close();
  }

  /** Initial data or a pushed `{patch}`: merged point by point into the selected curves. */
  push(data: unknown): void {
    if (!this.selection) return;
    if (!isRecord(data) || !isRecord(data.patch)) {
      this.emit('error', t.badReply);
      return;
    }
    this.store.applyPatch(data.patch);
    this.emit('data');
  }

  private open(): void {
    const selection = this.selection;
    if (!selection) return;
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    this.client.connect();
    this.client
      .subscribeView(VIEW_ID, VIEW_NAME, subscriptionParams(selection.future, selection.types), (data) => {
        if (current()) this.push(data);
      })
      .then(
        (initial) => {
          if (current()) this.push(initial);
        },
        (error: unknown) => {
          if (current()) this.emit('error', error instanceof Error ? error.message : String(error));
        },
      );
  }

  private onState(state: WsState): void {
    if (!this.selection) return;
    if (state === 'reconnecting' || state === 'disconnected') {
      if (!this.dropped) {
        this.dropped = true;
        this.generation++;
        // While closed this only forgets the view locally; it is subscribed afresh on reconnect.
        void this.client.unsubscribeView(VIEW_ID);
      }
      this.emit('error', state === 'reconnecting' ? t.reconnecting : t.connectionLost);
    } else if (state === 'connected' && this.dropped) {
      this.dropped = false;
      this.open(); // the error stays until the fresh data arrives
    }
  }

  private emit(status: FeedStatus, message = ''): void {
    const version = this.store.version;
    const s = this.snapshot;
    if (s.status === status && s.message === message && s.version === version) return;
    this.snapshot = { status, message, version };
    for (const l of [...this.listeners]) l();
  }
}
