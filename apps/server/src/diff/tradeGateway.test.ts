import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayEvent, GatewayOrder } from '../trading/gateway';
import { FAKE_DEFAULT_ACCOUNT, FakeDiffServer, type FakeDiffServerOptions } from '../../test/diff/fakeServer';
import { DiffMarketData } from './marketData';
import { buildInsertOrder, supportsMarketOrders } from './orderPacket';
import { DiffTradeGateway, type DiffTradeGatewayOptions } from './tradeGateway';
import { sleep, waitFor } from '../../test/diff/testSupport';

const FAST = { initialMs: 10, maxMs: 50 };
const { brokerId, userName, password } = FAKE_DEFAULT_ACCOUNT;

function order(overrides: Partial<GatewayOrder> & { orderId: string }): GatewayOrder {
  return {
    symbol: 'SHFE.cu2601',
    direction: 'BUY',
    offset: 'OPEN',
    volume: 1,
    priceType: 'LIMIT',
    limitPrice: 80010,
    ...overrides,
  };
}

describe('DiffTradeGateway', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fake(options: FakeDiffServerOptions = {}): Promise<FakeDiffServer> {
    const server = await FakeDiffServer.start(options);
    cleanups.push(() => server.close());
    return server;
  }

  function gateway(
    server: FakeDiffServer,
    options: Partial<DiffTradeGatewayOptions> = {},
  ): { gw: DiffTradeGateway; events: GatewayEvent[] } {
    const gw = new DiffTradeGateway({
      url: server.url,
      brokerId,
      userName,
      password,
      backoff: FAST,
      pingIntervalMs: 0,
      ...options,
    });
    cleanups.push(() => gw.close());
    const events: GatewayEvent[] = [];
    gw.onEvent((e) => events.push(e));
    return { gw, events };
  }

  const of = (events: GatewayEvent[], orderId: string): GatewayEvent[] =>
    events.filter((e) => e.type !== 'status' && e.orderId === orderId);
  const types = (events: GatewayEvent[], orderId: string): string[] => of(events, orderId).map((e) => e.type);

  it('logs in, confirms the settlement once, and reports ok', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    expect(gw.status()).toEqual({ status: 'error', message: '连接中' });
    await expect(gw.insertOrder(order({ orderId: '1' }))).rejects.toThrow('交易网关未就绪：连接中');
    await gw.connect();
    expect(gw.status()).toEqual({ status: 'ok' });
    expect(server.receivedOf('req_login')).toEqual([
      { aid: 'req_login', bid: brokerId, user_name: userName, password },
    ]);
    await waitFor(() => server.receivedOf('confirm_settlement').length === 1, 5_000, 'confirm_settlement');
    expect(events.filter((e) => e.type === 'status').map((e) => (e.type === 'status' ? e.status : null))).toEqual([
      { status: 'ok' },
    ]);
    await gw.connect(); // already connected: resolves at once
  });

  it('reports a login failure in Chinese and does not try the password again', async () => {
    const server = await fake();
    const { gw, events } = gateway(server, { password: 'wrong' });
    await expect(gw.connect()).rejects.toThrow('登录失败：CTP:不合法的登录');
    expect(gw.status()).toEqual({ status: 'error', message: '登录失败：CTP:不合法的登录' });
    expect(events.at(-1)).toEqual({
      type: 'status',
      status: { status: 'error', message: '登录失败：CTP:不合法的登录' },
    });
    await sleep(200);
    expect(server.receivedOf('req_login')).toHaveLength(1);
    expect(server.totalConnections).toBe(1);
    await expect(gw.queryOrder('1')).rejects.toThrow('登录失败');
  });

  it('inserts a limit order: accepted, then the trade; nothing else once fully filled', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    await gw.insertOrder(order({ orderId: '11', volume: 2 }));
    await waitFor(() => types(events, '11').includes('trade'), 5_000, 'trade');
    expect(server.receivedOf('insert_order')).toEqual([
      {
        aid: 'insert_order',
        user_id: userName,
        order_id: 'pfp11',
        exchange_id: 'SHFE',
        instrument_id: 'cu2601',
        direction: 'BUY',
        offset: 'OPEN',
        volume: 2,
        volume_condition: 'ANY',
        price_type: 'LIMIT',
        limit_price: 80010,
        time_condition: 'GFD',
      },
    ]);
    const [accepted, trade] = of(events, '11');
    expect(accepted).toEqual({ type: 'accepted', orderId: '11', exchangeOrderId: '100001' });
    expect(trade).toMatchObject({ type: 'trade', orderId: '11', volume: 2, price: 80010 });
    expect(trade?.type === 'trade' && Math.abs(trade.at.getTime() - Date.now()) < 60_000).toBe(true);
    await sleep(50);
    expect(types(events, '11')).toEqual(['accepted', 'trade']);
    const state = await gw.queryOrder('11');
    expect(state).toMatchObject({ known: true, status: 'FINISHED', volumeTraded: 2, message: '全部成交' });
    expect(state.trades).toHaveLength(1);
    expect(state.trades[0]).toMatchObject({ volume: 2, price: 80010 });
    expect(await gw.queryOrder('nope')).toEqual({ known: false, volumeTraded: 0, trades: [] });
  });

  it('rests an order, fills it when the market comes, and cancels the rest of a partial fill', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    // 8 lots at the ask, where only 5 are offered: 5 trade, 3 rest.
    await gw.insertOrder(order({ orderId: '21', volume: 8 }));
    await waitFor(() => types(events, '21').includes('trade'), 5_000, 'partial trade');
    expect(of(events, '21')[1]).toMatchObject({ type: 'trade', volume: 5, price: 80010 });
    expect(await gw.queryOrder('21')).toMatchObject({ status: 'ALIVE', volumeTraded: 5 });
    await gw.cancelOrder('21');
    await waitFor(() => types(events, '21').includes('cancelled'), 5_000, 'cancelled');
    expect(of(events, '21').at(-1)).toEqual({ type: 'cancelled', orderId: '21', message: '已撤单' });
    expect(types(events, '21')).toEqual(['accepted', 'trade', 'cancelled']);
    expect(await gw.queryOrder('21')).toMatchObject({ status: 'FINISHED', volumeTraded: 5 });

    // A bid below the market rests, then fills when the offer comes down to it.
    await gw.insertOrder(order({ orderId: '22', volume: 1, limitPrice: 79900 }));
    await waitFor(() => types(events, '22').includes('accepted'), 5_000, 'accepted');
    await sleep(30);
    expect(types(events, '22')).toEqual(['accepted']);
    server.setQuote('SHFE.cu2601', { ask_price1: 79900, ask_volume1: 3 });
    await waitFor(() => types(events, '22').includes('trade'), 5_000, 'trade on quote move');
    expect(of(events, '22')[1]).toMatchObject({ type: 'trade', volume: 1, price: 79900 });
  });

  it('sends a market order as ANY/IOC where the exchange has market orders; the unfilled rest is cancelled', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    // DCE.m2601 offers 10 lots: 10 trade, the other 5 are cancelled by the IOC.
    await gw.insertOrder(order({ orderId: '31', symbol: 'DCE.m2601', volume: 15, priceType: 'MARKET', limitPrice: 0 }));
    await waitFor(() => types(events, '31').includes('cancelled'), 5_000, 'IOC remainder');
    expect(server.receivedOf('insert_order')[0]).toMatchObject({
      exchange_id: 'DCE',
      instrument_id: 'm2601',
      price_type: 'ANY',
      time_condition: 'IOC',
      volume_condition: 'ANY',
    });
    expect(server.receivedOf('insert_order')[0]?.limit_price).toBeUndefined();
    expect(of(events, '31')).toEqual([
      { type: 'accepted', orderId: '31', exchangeOrderId: '100001' },
      expect.objectContaining({ type: 'trade', orderId: '31', volume: 10, price: 3001 }),
      { type: 'cancelled', orderId: '31', message: '部分成交不在队列中' },
    ]);
    expect(await gw.queryOrder('31')).toMatchObject({ status: 'FINISHED', volumeTraded: 10 });
  });

  it('sends a SHFE market order as FAK at the limit-up price, taken from the market data', async () => {
    const server = await fake();
    const md = new DiffMarketData({ url: server.url, backoff: FAST, pingIntervalMs: 0 });
    cleanups.push(() => md.close());
    md.subscribe(['SHFE.cu2601']);
    md.start();
    await waitFor(() => md.getQuote('SHFE.cu2601'), 5_000, 'quote');
    const { gw, events } = gateway(server, { quotes: md });
    await gw.connect();
    await gw.insertOrder(order({ orderId: '41', volume: 1, priceType: 'MARKET', limitPrice: 0 }));
    await gw.insertOrder(order({ orderId: '42', direction: 'SELL', volume: 1, priceType: 'MARKET', limitPrice: 0 }));
    await waitFor(() => types(events, '41').includes('trade') && types(events, '42').includes('trade'), 5_000, 'fills');
    const [buy, sell] = server.receivedOf('insert_order');
    expect(buy).toMatchObject({
      price_type: 'LIMIT',
      limit_price: 86400,
      time_condition: 'IOC',
      volume_condition: 'ANY',
    });
    expect(sell).toMatchObject({
      price_type: 'LIMIT',
      limit_price: 73600,
      time_condition: 'IOC',
      volume_condition: 'ANY',
    });
    expect(of(events, '41')[1]).toMatchObject({ type: 'trade', price: 80010 });
    expect(of(events, '42')[1]).toMatchObject({ type: 'trade', price: 79990 });
  });

  it('rejects: a price beyond the daily limit at the broker, and a market order without a usable price locally', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    await gw.insertOrder(order({ orderId: '51', limitPrice: 99000 }));
    await waitFor(() => types(events, '51').includes('rejected'), 5_000, 'rejected');
    expect(of(events, '51')).toEqual([
      { type: 'rejected', orderId: '51', message: '已撤单报单被拒绝:报单价格超出涨跌停板' },
    ]);
    expect(await gw.queryOrder('51')).toMatchObject({ known: true, status: 'FINISHED', volumeTraded: 0 });

    await gw.insertOrder(order({ orderId: '52', priceType: 'MARKET', limitPrice: 0 }));
    await waitFor(() => types(events, '52').includes('rejected'), 5_000, 'local rejection');
    expect(of(events, '52')).toEqual([
      { type: 'rejected', orderId: '52', message: 'SHFE.cu2601 不支持市价单，且没有涨跌停价可用' },
    ]);
    expect(server.receivedOf('insert_order')).toHaveLength(1);
  });

  it('closes SHFE positions opened today with CLOSETODAY and older ones with CLOSE, from the positions', async () => {
    const server = await fake({ positions: { 'SHFE.cu2601': { long_his: 1 }, 'DCE.m2601': { long_today: 1 } } });
    const { gw, events } = gateway(server);
    await gw.connect();
    const sell = { direction: 'SELL' as const, offset: 'CLOSE' as const, limitPrice: 79990 };
    await gw.insertOrder(order({ orderId: '91', ...sell }));
    await waitFor(() => types(events, '91').includes('trade'), 5_000, 'close of the older lot');
    await gw.insertOrder(order({ orderId: '92', volume: 2 }));
    await waitFor(() => types(events, '92').includes('trade'), 5_000, 'open');
    await gw.insertOrder(order({ orderId: '93', ...sell, volume: 2 }));
    await waitFor(() => types(events, '93').includes('trade'), 5_000, 'close of today');
    await gw.insertOrder(order({ orderId: '94', ...sell }));
    await waitFor(() => types(events, '94').includes('rejected'), 5_000, 'nothing left to close');
    expect(of(events, '94')).toEqual([{ type: 'rejected', orderId: '94', message: '已撤单报单被拒绝:平昨仓位不足' }]);
    await gw.insertOrder(order({ orderId: '95', ...sell, symbol: 'DCE.m2601', limitPrice: 2999 }));
    await waitFor(() => types(events, '95').includes('trade'), 5_000, 'DCE close');
    expect(server.receivedOf('insert_order').map((m) => m.offset)).toEqual([
      'CLOSE',
      'OPEN',
      'CLOSETODAY',
      'CLOSE',
      'CLOSE',
    ]);
    expect(server.getPosition('SHFE.cu2601')).toEqual({ long_his: 0, long_today: 0, short_his: 0, short_today: 0 });
    expect(server.getPosition('DCE.m2601')).toEqual({ long_his: 0, long_today: 0, short_his: 0, short_today: 0 });
  });

  it("reports the account's positions (the exposure page's hedge) once logged in, and as they change", async () => {
    const server = await fake({ positions: { 'SHFE.cu2601': { long_his: 2, short_today: 1 } } });
    const { gw, events } = gateway(server);
    expect(gw.positions()).toBeUndefined();
    await gw.connect();
    expect(gw.positions()).toEqual([{ instrument_id: 'SHFE.cu2601', long: 2, short: 1 }]);
    await gw.insertOrder(order({ orderId: '81', volume: 3 }));
    await waitFor(() => types(events, '81').includes('trade'), 5_000, 'open');
    await waitFor(() => gw.positions()?.[0]?.long === 5, 5_000, 'position after the fill');
    expect(gw.positions()).toEqual([{ instrument_id: 'SHFE.cu2601', long: 5, short: 1 }]);
  });

  it('is idempotent by order id, on this connection and for orders the server already has', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    await Promise.all([gw.insertOrder(order({ orderId: '61' })), gw.insertOrder(order({ orderId: '61' }))]);
    await waitFor(() => types(events, '61').includes('trade'), 5_000, 'trade');
    await gw.insertOrder(order({ orderId: '61' }));
    await sleep(50);
    expect(server.receivedOf('insert_order')).toHaveLength(1);
    expect(types(events, '61')).toEqual(['accepted', 'trade']);

    // A restarted process (a new gateway) sending the order again: nothing is sent, its events are given.
    const second = gateway(server);
    await second.gw.connect();
    await second.gw.insertOrder(order({ orderId: '61' }));
    expect(types(second.events, '61')).toEqual(['accepted', 'trade']);
    expect(server.receivedOf('insert_order')).toHaveLength(1);
  });

  it('reconnects after the connection drops, logs in again, and still knows its orders', async () => {
    const server = await fake();
    const { gw, events } = gateway(server);
    await gw.connect();
    await gw.insertOrder(order({ orderId: '71', volume: 2 }));
    await gw.insertOrder(order({ orderId: '72', volume: 1, limitPrice: 79000 }));
    await waitFor(
      () => types(events, '71').includes('trade') && types(events, '72').includes('accepted'),
      5_000,
      'orders',
    );

    server.dropConnections();
    await waitFor(() => gw.status().message === '连接断开，正在重连', 5_000, 'disconnected status');
    await expect(gw.insertOrder(order({ orderId: '73' }))).rejects.toThrow('交易网关未就绪：');
    const state = await gw.queryOrder('71'); // waits for the new login
    expect(gw.status()).toEqual({ status: 'ok' });
    expect(state).toMatchObject({ known: true, status: 'FINISHED', volumeTraded: 2 });
    expect(server.receivedOf('req_login')).toHaveLength(2);
    await waitFor(() => server.receivedOf('confirm_settlement').length === 2, 5_000, 'second confirm');
    const statuses = events.flatMap((e) => (e.type === 'status' ? [e.status.message ?? 'ok'] : []));
    expect(statuses).toEqual(['ok', '连接断开，正在重连', '连接中', 'ok']);

    // The resting order fills after the reconnect; old trades are not reported again.
    server.setQuote('SHFE.cu2601', { ask_price1: 79000, ask_volume1: 1 });
    await waitFor(() => types(events, '72').includes('trade'), 5_000, 'trade after reconnect');
    expect(types(events, '71')).toEqual(['accepted', 'trade']);
    expect(await gw.queryOrder('72')).toMatchObject({ status: 'FINISHED', volumeTraded: 1 });
    // The same order id after the reconnect is still not sent twice.
    await gw.insertOrder(order({ orderId: '71', volume: 2 }));
    expect(server.receivedOf('insert_order')).toHaveLength(2);
  });

  it('adopts an order found by queryOrder: only later changes become events', async () => {
    const server = await fake();
    const first = gateway(server);
    await first.gw.connect();
    await first.gw.insertOrder(order({ orderId: '81', volume: 8 })); // 5 trade, 3 rest
    await waitFor(() => types(first.events, '81').includes('trade'), 5_000, 'trade');
    await first.gw.close();

    const { gw, events } = gateway(server);
    await gw.connect();
    expect(await gw.queryOrder('81')).toMatchObject({ known: true, status: 'ALIVE', volumeTraded: 5 });
    await gw.cancelOrder('81');
    await waitFor(() => types(events, '81').includes('cancelled'), 5_000, 'cancelled');
    expect(types(events, '81')).toEqual(['cancelled']);
  });

  it('reports a lost server as reconnecting, and close() as closed', async () => {
    const server = await FakeDiffServer.start();
    const { gw } = gateway(server, { queryTimeoutMs: 100 });
    await gw.connect();
    await server.close();
    await waitFor(() => gw.status().message === '连接断开，正在重连', 5_000, 'reconnecting');
    await expect(gw.queryOrder('1')).rejects.toThrow('交易网关未就绪：连接断开，正在重连');
    await gw.close();
    expect(gw.status()).toEqual({ status: 'error', message: '连接已关闭' });
    await expect(gw.connect()).rejects.toThrow('交易网关已关闭');
  });
});

describe('order mapping', () => {
  it('knows which exchanges take market orders (TqSdk rule)', () => {
    expect(supportsMarketOrders('DCE.m2601')).toBe(true);
    expect(supportsMarketOrders('CZCE.SR601')).toBe(true);
    expect(supportsMarketOrders('CZCE.SR601C6000')).toBe(true);
    expect(supportsMarketOrders('GFEX.si2601')).toBe(true);
    expect(supportsMarketOrders('SHFE.cu2601')).toBe(false);
    expect(supportsMarketOrders('INE.sc2601')).toBe(false);
    expect(supportsMarketOrders('CFFEX.IF2601')).toBe(false);
    expect(supportsMarketOrders('DCE.m2601-C-3000')).toBe(false);
    expect(supportsMarketOrders('cu2601')).toBe(false);
  });

  it('maps a market order without market orders to FAK at the limit price, or the order price as a fallback', () => {
    const o = order({ orderId: '9', priceType: 'MARKET', direction: 'SELL', limitPrice: 79000, volume: 3 });
    expect(buildInsertOrder(o, 'u', 'pfp9', { upper_limit: 86400, lower_limit: 73600 })).toMatchObject({
      price_type: 'LIMIT',
      limit_price: 73600,
      time_condition: 'IOC',
      volume_condition: 'ANY',
      volume: 3,
    });
    expect(buildInsertOrder(o, 'u', 'pfp9', { upper_limit: NaN, lower_limit: NaN })).toMatchObject({
      limit_price: 79000,
    });
    expect(buildInsertOrder(o, 'u', 'pfp9')).toMatchObject({ limit_price: 79000, offset: 'OPEN' });
    expect(buildInsertOrder({ ...o, offset: 'CLOSE' }, 'u', 'pfp9', undefined, true)).toMatchObject({
      offset: 'CLOSETODAY',
    });
    expect(buildInsertOrder(o, 'u', 'pfp9', undefined, true)).toMatchObject({ offset: 'OPEN' });
    expect(() => buildInsertOrder({ ...o, limitPrice: 0 }, 'u', 'pfp9')).toThrow('不支持市价单');
    expect(() => buildInsertOrder({ ...o, symbol: 'cu2601' }, 'u', 'pfp9')).toThrow('合约代码不合法');
    expect(() => buildInsertOrder({ ...o, volume: 1.5 }, 'u', 'pfp9')).toThrow('下单手数不合法');
    expect(() => buildInsertOrder({ ...o, priceType: 'LIMIT', limitPrice: NaN }, 'u', 'pfp9')).toThrow(
      '限价单价格不合法',
    );
  });
});
