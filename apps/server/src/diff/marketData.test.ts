import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiffServer } from '../../test/diff/fakeServer';
import { buildInstrumentQuery, createDiffMarketDataFromEnv, DiffMarketData, parseInstruments } from './marketData';
import type { Quote } from '../platform/quote';
import { unusedPort, waitFor } from '../../test/diff/testSupport';

const FAST = { initialMs: 10, maxMs: 50 };

describe('DiffMarketData', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(): Promise<{ server: FakeDiffServer; md: DiffMarketData; ticks: Quote[][] }> {
    const server = await FakeDiffServer.start();
    cleanups.push(() => server.close());
    const md = new DiffMarketData({ url: server.url, backoff: FAST, pingIntervalMs: 0 });
    cleanups.push(() => md.close());
    const ticks: Quote[][] = [];
    md.onTick((quotes) => ticks.push(quotes));
    return { server, md, ticks };
  }

  it('subscribes, receives quotes, and ticks the changed quotes when one moves', async () => {
    const { server, md, ticks } = await setup();
    expect(md.status()).toEqual({ status: 'error', message: '行情连接中' });
    md.subscribe(['SHFE.cu2601', 'DCE.m2601']);
    md.start();
    const cu = await waitFor(() => md.getQuote('SHFE.cu2601'), 5_000, 'cu quote');
    expect(cu).toMatchObject({
      symbol: 'SHFE.cu2601',
      last_price: 80000,
      bid_price1: 79990,
      ask_price1: 80010,
      bid_volume1: 5,
      ask_volume1: 5,
      upper_limit: 86400,
      lower_limit: 73600,
      pre_settlement: 80000,
      open_interest: 50000,
    });
    expect(cu.datetime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    expect(md.getQuote('DCE.m2601')?.last_price).toBe(3000);
    expect(md.status()).toEqual({ status: 'ok' });
    expect(server.receivedOf('subscribe_quote').at(-1)?.ins_list).toBe('SHFE.cu2601,DCE.m2601');
    expect(
      ticks
        .flat()
        .map((q) => q.symbol)
        .sort(),
    ).toEqual(['DCE.m2601', 'SHFE.cu2601']);

    ticks.length = 0;
    server.setQuote('DCE.m2601', { last_price: 3005, bid_price1: 3004, ask_price1: 3006 });
    await waitFor(() => ticks.length > 0, 5_000, 'tick');
    expect(ticks[0]).toHaveLength(1);
    expect(ticks[0]?.[0]).toMatchObject({ symbol: 'DCE.m2601', last_price: 3005, bid_price1: 3004, ask_price1: 3006 });
    expect(md.getQuote('DCE.m2601')?.volume).toBe(5000);
    expect(md.getQuote('CZCE.SR601')).toBeUndefined();
  });

  it('restores the subscription after the server drops the connection', async () => {
    const { server, md, ticks } = await setup();
    md.subscribe(['SHFE.cu2601']);
    md.start();
    await waitFor(() => md.getQuote('SHFE.cu2601'), 5_000, 'quote');
    md.subscribe(['DCE.m2601']);
    await waitFor(() => md.getQuote('DCE.m2601'), 5_000, 'second quote');

    server.dropConnections();
    await waitFor(
      () => md.status().message === '行情连接断开，正在重连' || md.connection.connectCount > 1,
      5_000,
      'drop',
    );
    await waitFor(() => md.connection.connectCount === 2 && md.status().status === 'ok', 5_000, 'reconnect');
    await waitFor(() => server.receivedOf('subscribe_quote').length === 3, 5_000, 'resubscribe');
    expect(server.receivedOf('subscribe_quote').at(-1)?.ins_list).toBe('SHFE.cu2601,DCE.m2601');

    ticks.length = 0;
    server.setQuote('SHFE.cu2601', { last_price: 81000 });
    await waitFor(() => ticks.flat().find((q) => q.symbol === 'SHFE.cu2601' && q.last_price === 81000), 5_000, 'tick');
    expect(md.getQuote('SHFE.cu2601')?.last_price).toBe(81000);
  });

  it('unsubscribes by sending the remaining list', async () => {
    const { server, md } = await setup();
    md.subscribe(['SHFE.cu2601', 'DCE.m2601']);
    md.start();
    await waitFor(() => md.getQuote('DCE.m2601'), 5_000, 'quote');
    md.unsubscribe(['SHFE.cu2601', 'nothing']);
    expect(md.subscribed()).toEqual(['DCE.m2601']);
    await waitFor(() => server.receivedOf('subscribe_quote').at(-1)?.ins_list === 'DCE.m2601', 5_000, 'new list');
  });

  it('queries the instrument catalogue with ins_query, also when asked before the connection is up', async () => {
    const { server, md } = await setup();
    const pending = md.queryInstruments({ exchangeIds: ['DCE'], classes: ['FUTURE'] });
    md.start();
    const instruments = await pending;
    expect(instruments).toEqual([
      {
        symbol: 'DCE.m2601',
        exchangeId: 'DCE',
        instrumentId: 'm2601',
        name: 'm2601',
        class: 'FUTURE',
        productId: 'm',
        priceTick: 1,
        volumeMultiple: 10,
        expired: false,
        expireAt: new Date(Date.UTC(2026, 0, 15, 7)),
      },
    ]);
    const sent = server.receivedOf('ins_query')[0];
    expect(sent?.variables).toEqual({ class: ['FUTURE'], exchange_id: ['DCE'] });
    expect(sent?.query).toContain('multi_symbol_info(class: $class, exchange_id: $exchange_id)');
    expect(md.connection.data.symbols).toEqual({});
    const all = await md.queryInstruments();
    expect(all.map((i) => i.symbol).sort()).toEqual(['DCE.m2601', 'SHFE.cu2601']);
  });

  it('times out a query nobody answers, and rejects pending queries on close', async () => {
    const md = new DiffMarketData({ url: `ws://127.0.0.1:${await unusedPort()}`, backoff: FAST, pingIntervalMs: 0 });
    md.start();
    await expect(md.queryInstruments({ symbols: ['SHFE.cu2601'] }, 50)).rejects.toThrow('合约查询超时');
    const pending = md.queryInstruments({});
    await md.close();
    await expect(pending).rejects.toThrow('行情连接已关闭');
    expect(md.status()).toEqual({ status: 'error', message: '行情连接已关闭' });
  });
});

describe('instrument query helpers', () => {
  it('builds the GraphQL query like TqSdk, one variable per filter', () => {
    expect(buildInstrumentQuery({}).query).toMatch(/^query \{ multi_symbol_info \{ \.\.\. on basic/);
    const { query, variables } = buildInstrumentQuery({ symbols: ['SHFE.cu2601'], expired: false });
    expect(query).toMatch(
      /^query \(\$instrument_id: \[String\], \$expired: Boolean\) \{ multi_symbol_info\(instrument_id: \$instrument_id, expired: \$expired\)/,
    );
    expect(variables).toEqual({ instrument_id: ['SHFE.cu2601'], expired: false });
  });

  it('parses options with their underlying and skips malformed entries', () => {
    const parsed = parseInstruments({
      multi_symbol_info: [
        {
          class: 'OPTION',
          instrument_id: 'SHFE.cu2601C80000',
          instrument_name: '铜2601购80000',
          exchange_id: 'SHFE',
          price_tick: 2,
          volume_multiple: 5,
          strike_price: 80000,
          call_or_put: 'CALL',
          underlying: { edges: [{ node: { instrument_id: 'SHFE.cu2601' } }] },
        },
        { class: 'FUTURE' },
        'junk',
      ],
    });
    expect(parsed).toEqual([
      {
        symbol: 'SHFE.cu2601C80000',
        exchangeId: 'SHFE',
        instrumentId: 'cu2601C80000',
        name: '铜2601购80000',
        class: 'OPTION',
        priceTick: 2,
        volumeMultiple: 5,
        strikePrice: 80000,
        callOrPut: 'CALL',
        underlying: 'SHFE.cu2601',
      },
    ]);
    expect(parseInstruments(undefined)).toEqual([]);
  });
});

describe('createDiffMarketDataFromEnv', () => {
  it('is null unless MARKET_SOURCE=diff, and needs a ws(s) MD_URL', async () => {
    expect(createDiffMarketDataFromEnv({})).toBeNull();
    expect(createDiffMarketDataFromEnv({ MARKET_SOURCE: 'sim', MD_URL: 'ws://x' })).toBeNull();
    expect(() => createDiffMarketDataFromEnv({ MARKET_SOURCE: 'diff' })).toThrow('MD_URL');
    expect(() => createDiffMarketDataFromEnv({ MARKET_SOURCE: 'diff', MD_URL: 'http://x' })).toThrow('MD_URL');
    const md = createDiffMarketDataFromEnv({ MARKET_SOURCE: 'diff', MD_URL: 'wss://md.example/t/md/front/mobile' });
    expect(md).toBeInstanceOf(DiffMarketData);
    await md?.close();
  });
});
