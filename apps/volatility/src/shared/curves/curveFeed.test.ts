import type { StateListener, WsClient, WsState } from '@pfp/ws-core';
import { describe, expect, it, vi } from 'vitest';
import { CurveFeed, VIEW_ID } from './curveFeed';
import { curveTypesOf } from './curveTypes';

interface FakeView {
  params: Record<string, unknown> | undefined;
  onData: (d: unknown) => void;
  resolve: (d: unknown) => void;
  reject: (e: Error) => void;
}

/** An in-memory stand-in for ws-core's client: records calls, lets the test drive replies and state. */
class FakeWs implements WsClient {
  state: WsState = 'disconnected';
  calls: string[] = [];
  views = new Map<string, FakeView>();
  private listeners = new Set<StateListener>();

  onStateChange(l: StateListener) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }
  setState(next: WsState) {
    const prev = this.state;
    this.state = next;
    for (const l of [...this.listeners]) l(next, prev);
  }
  connect() {
    this.calls.push('connect');
  }
  close() {
    this.calls.push('close');
    this.setState('disconnected');
  }
  subscribeView<T>(
    viewId: string,
    _name: string,
    params: Record<string, unknown> | undefined,
    onData: (d: T) => void,
  ): Promise<T | undefined> {
    this.calls.push(`subscribe ${JSON.stringify(params)}`);
    return new Promise<T | undefined>((resolve, reject) => {
      this.views.set(viewId, {
        params,
        onData: onData as (d: unknown) => void,
        resolve: resolve as (d: unknown) => void,
        reject,
      });
    });
  }
  unsubscribeView(viewId: string) {
    this.calls.push(`unsubscribe ${viewId}`);
    this.views.delete(viewId);
    return Promise.resolve();
  }
  hasView(viewId: string) {
    return this.views.has(viewId);
  }
  viewIds() {
    return [...this.views.keys()];
  }
  request<T>(): Promise<T> {
    throw new Error('not used');
  }
  startTask(): Promise<string> {
    throw new Error('not used');
  }
  interveneTask<T>(): Promise<T> {
    throw new Error('not used');
  }
  view() {
    const v = this.views.get(VIEW_ID);
    if (!v) throw new Error('no view subscribed');
    return v;
  }
}

const F = 'SHFE.cu2702';
const patch = (entries: Record<string, [number, number][]>) => ({
  patch: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { _key: k, curve_data: v }])),
});
const flush = () => new Promise((r) => setTimeout(r, 0));

function setup() {
  const ws = new FakeWs();
  const warn = vi.fn();
  const feed = new CurveFeed(ws, warn);
  return { ws, feed, warn };
}

describe('CurveFeed', () => {
  it('subscribes the view for the selection and shows data once the initial curves arrive', async () => {
    const { ws, feed } = setup();
    expect(feed.getSnapshot().status).toBe('empty');
    feed.select(F, curveTypesOf(['CALL-last', 'PUT-last']));
    expect(feed.getSnapshot().status).toBe('loading');
    expect(ws.calls).toEqual([
      `unsubscribe ${VIEW_ID}`,
      'connect',
      `subscribe ${JSON.stringify({
        data_source: 'volatility_curves',
        params: {
          items: [
            { symbol: F, option_type: 'CALL', price_type: 'last' },
            { symbol: F, option_type: 'PUT', price_type: 'last' },
          ],
        },
      })}`,
    ]);
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[61000, 0.3]], [`${F}-PUT-last`]: [[61000, 0.28]] }));
    await flush();
    expect(feed.getSnapshot()).toEqual({ status: 'data', message: '', version: 1 });
    expect(feed.store.curvesInOrder().map((c) => c.label)).toEqual(['看涨最新价', '看跌最新价']);
  });

  it('merges pushes and notifies only when something changed', async () => {
    const { ws, feed } = setup();
    const listener = vi.fn();
    feed.subscribe(listener);
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[61000, 0.3]] }));
    await flush();
    listener.mockClear();
    ws.view().onData(patch({ [`${F}-CALL-last`]: [[61000, 0.3]] }));
    expect(listener).not.toHaveBeenCalled();
    ws.view().onData(patch({ [`${F}-CALL-last`]: [[62000, 0.25]] }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(feed.getSnapshot().version).toBe(2);
    expect(feed.store.curvesInOrder()[0]!.data).toEqual([
      { x: 61000, y: 0.3 },
      { x: 62000, y: 0.25 },
    ]);
  });

  it('on a selection change drops curves outside it, unsubscribes, re-subscribes and ignores the old reply', async () => {
    const { ws, feed, warn } = setup();
    feed.select(F, curveTypesOf(['CALL-last', 'PUT-last']));
    const old = ws.view();
    old.resolve(patch({ [`${F}-CALL-last`]: [[61000, 0.3]], [`${F}-PUT-last`]: [[61000, 0.28]] }));
    await flush();
    ws.calls = [];
    feed.select(F, curveTypesOf(['PUT-last', 'PUT-bid']));
    expect(ws.calls[0]).toBe(`unsubscribe ${VIEW_ID}`);
    expect(ws.calls[2]).toContain('"price_type":"bid"');
    expect(feed.store.curvesInOrder().map((c) => c.label)).toEqual(['看跌最新价']);
    expect(feed.getSnapshot().status).toBe('loading');
    old.onData(patch({ [`${F}-CALL-last`]: [[61000, 0.5]] })); // late push of the old subscription
    expect(warn).not.toHaveBeenCalled();
    ws.view().resolve(patch({ [`${F}-PUT-bid`]: [[61000, 0.27]] }));
    await flush();
    expect(feed.getSnapshot().status).toBe('data');
    expect(feed.store.curvesInOrder().map((c) => c.label)).toEqual(['看跌最新价', '看跌买价']);
  });

  it('warns about and ignores curves the selection does not contain', async () => {
    const { ws, feed, warn } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[1, 0.3]], [`${F}-CALL-ask`]: [[1, 0.4]] }));
    await flush();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(feed.store.curvesInOrder()).toHaveLength(1);
  });

  it('with no future or no curve types unsubscribes, closes the connection and clears the curves', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[1, 0.3]] }));
    await flush();
    ws.calls = [];
    feed.select(F, []);
    expect(ws.calls).toEqual([`unsubscribe ${VIEW_ID}`, 'close']);
    expect(feed.getSnapshot().status).toBe('empty');
    expect(feed.store.curvesInOrder()).toEqual([]);
    feed.select(null, curveTypesOf(['CALL-last']));
    expect(feed.getSnapshot().status).toBe('empty');
  });

  it('shows a subscription failure with the server text', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().reject(new Error('items[0].symbol 不是有效的期货合约'));
    await flush();
    expect(feed.getSnapshot()).toMatchObject({ status: 'error', message: 'items[0].symbol 不是有效的期货合约' });
  });

  it('shows the reconnect as an error and subscribes afresh when the connection is back', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.setState('connected');
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[1, 0.3]] }));
    await flush();
    ws.setState('disconnected');
    ws.setState('reconnecting');
    expect(feed.getSnapshot()).toMatchObject({ status: 'error', message: '与服务器的连接已断开，正在重新连接...' });
    expect(ws.hasView(VIEW_ID)).toBe(false);
    ws.calls = [];
    ws.setState('connecting');
    ws.setState('connected');
    expect(ws.calls.filter((c) => c.startsWith('subscribe'))).toHaveLength(1);
    expect(feed.getSnapshot().status).toBe('error'); // until the data is back
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[2, 0.31]] }));
    await flush();
    expect(feed.getSnapshot().status).toBe('data');
    expect(feed.store.curvesInOrder()[0]!.data.map((p) => p.x)).toEqual([1, 2]);
  });

  it('retry subscribes again after an error', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().reject(new Error('视图订阅失败'));
    await flush();
    feed.retry();
    expect(feed.getSnapshot().status).toBe('loading');
    ws.view().resolve(patch({ [`${F}-CALL-last`]: [[1, 0.3]] }));
    await flush();
    expect(feed.getSnapshot().status).toBe('data');
  });

  it('stop unsubscribes, closes and ignores later connection changes', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    const pending = ws.view();
    feed.stop();
    expect(ws.calls.slice(-2)).toEqual([`unsubscribe ${VIEW_ID}`, 'close']);
    ws.setState('reconnecting');
    pending.resolve(patch({ [`${F}-CALL-last`]: [[1, 0.3]] }));
    await flush();
    expect(feed.getSnapshot().status).toBe('loading');
    expect(feed.store.version).toBe(0);
  });

  it('a reply without a patch is an error', async () => {
    const { ws, feed } = setup();
    feed.select(F, curveTypesOf(['CALL-last']));
    ws.view().resolve({ nothing: true });
    await flush();
    expect(feed.getSnapshot()).toMatchObject({ status: 'error', message: '服务器返回的数据格式不正确' });
  });
});
