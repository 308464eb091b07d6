import type { AddressInfo } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/diff/mergePatch';

/**
 * A local fake DIFF server (market data + one trading account) for tests, speaking the protocol the way
 * Shinny's market-data service and open-trade-gateway do:
 * - answers `peek_message` with one `rtn_data` holding every patch since the last one, and holds the peek
 *   while nothing changed;
 * - `subscribe_quote` (each one replaces the previous list; sets `ins_list`, sends the full quotes, then changes);
 * - `ins_query` from a tiny catalogue, answered under `symbols[query_id]` = {query, variables, result: {multi_symbol_info: […]}};
 * - `req_login` for one configured account: success → notify INFO '登录成功' and the account section
 *   `trade[user]` (session.trading_day, trade_more_data: false, accounts, positions, orders, trades);
 *   failure → notify ERROR and no session;
 * - `confirm_settlement`, `insert_order` (fills against the quotes' best prices and their volumes, partial
 *   fills, GFD orders rest and fill on later quote moves, IOC remainders are cancelled, volume_condition ALL
 *   is fill-or-kill; market orders `ANY` are refused on SHFE/INE/CFFEX as there; limit prices outside the
 *   daily limits are rejected), `cancel_order`;
 * - `dropConnections()` cuts every socket (the account state survives, as it does in open-trade-gateway).
 */

export interface FakeQuote {
  last_price: number;
  bid_price1: number;
  ask_price1: number;
  bid_volume1: number;
  ask_volume1: number;
  volume: number;
  open_interest: number;
  upper_limit: number;
  lower_limit: number;
  pre_settlement: number;
  /** Today's settlement price, published after the close (absent or NaN before: sent as null). */
  settlement?: number;
  /** The quote's exchange time ('YYYY-MM-DD HH:MM:SS.ffffff', Beijing); absent: when it was sent. */
  datetime?: string;
}

export interface FakeInstrument {
  /** e.g. 'SHFE.cu2601' (the catalogue's `instrument_id`). */
  symbol: string;
  name: string;
  class: 'FUTURE' | 'OPTION';
  productId: string;
  priceTick: number;
  volumeMultiple: number;
  expired: boolean;
  /** ns since the epoch. */
  expireDatetime: number;
}

export interface FakeAccount {
  brokerId: string;
  userName: string;
  password: string;
  tradingDay: string;
}

/** Open lots of the account in one instrument: older ("his") and opened today. */
export interface FakePosition {
  long_his: number;
  long_today: number;
  short_his: number;
  short_today: number;
}

export interface FakeDiffServerOptions {
  quotes?: Record<string, Partial<FakeQuote>>;
  /** Initial positions of the account by symbol. */
  positions?: Record<string, Partial<FakePosition>>;
  instruments?: FakeInstrument[];
  account?: Partial<FakeAccount>;
  /** Rejects an insert_order before it reaches the "exchange" when it returns a message. */
  reject?: (order: JsonObject) => string | undefined;
}

export const FAKE_DEFAULT_QUOTES: Record<string, FakeQuote> = {
  'SHFE.cu2601': {
    last_price: 80000,
    bid_price1: 79990,
    ask_price1: 80010,
    bid_volume1: 5,
    ask_volume1: 5,
    volume: 1000,
    open_interest: 50000,
    upper_limit: 86400,
    lower_limit: 73600,
    pre_settlement: 80000,
  },
  'DCE.m2601': {
    last_price: 3000,
    bid_price1: 2999,
    ask_price1: 3001,
    bid_volume1: 10,
    ask_volume1: 10,
    volume: 5000,
    open_interest: 200000,
    upper_limit: 3210,
    lower_limit: 2790,
    pre_settlement: 3000,
  },
};

export const FAKE_DEFAULT_ACCOUNT: FakeAccount = {
  brokerId: 'simnow',
  userName: '100001',
  password: 'secret',
  tradingDay: '20251201',
};

function defaultInstruments(symbols: string[]): FakeInstrument[] {
  return symbols.map((symbol) => {
    const [exchange = '', id = ''] = symbol.split('.');
    const productId = id.replace(/\d.*$/, '');
    return {
      symbol,
      name: `${productId}${id.slice(productId.length)}`,
      class: 'FUTURE',
      productId,
      priceTick: exchange === 'SHFE' ? 10 : 1,
      volumeMultiple: exchange === 'SHFE' ? 5 : 10,
      expired: false,
      expireDatetime: Date.UTC(2026, 0, 15, 7) * 1e6,
    };
  });
}

const NO_MARKET_ORDERS = new Set(['SHFE', 'INE', 'CFFEX']);
/** Where CLOSE closes only older positions and today's need CLOSETODAY. */
const CLOSE_TODAY_EXCHANGES = new Set(['SHFE', 'INE']);

/** 'YYYY-MM-DD HH:MM:SS.ffffff' in Beijing time, as in DIFF quotes. */
function quoteDatetime(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 23)}000`;
}

interface Client {
  ws: WebSocket;
  peek: boolean;
  outbox: JsonObject[];
  insList: string[];
  loggedIn: boolean;
  notifySeq: number;
}

interface FakeOrder {
  user_id: string;
  order_id: string;
  exchange_order_id: string;
  exchange_id: string;
  instrument_id: string;
  direction: string;
  offset: string;
  volume_orign: number;
  volume_left: number;
  price_type: string;
  limit_price: number;
  volume_condition: string;
  time_condition: string;
  status: 'ALIVE' | 'FINISHED';
  last_msg: string;
  insert_date_time: number;
}

export class FakeDiffServer {
  /** Every client packet except peek_message, in arrival order. */
  readonly received: JsonObject[] = [];
  private readonly wss: WebSocketServer;
  private readonly clients = new Map<WebSocket, Client>();
  private readonly quotes = new Map<string, FakeQuote>();
  private readonly instruments: FakeInstrument[];
  private readonly account: FakeAccount;
  private readonly reject: ((order: JsonObject) => string | undefined) | undefined;
  private readonly orders = new Map<string, FakeOrder>();
  private readonly trades = new Map<string, JsonObject>();
  private readonly positions = new Map<string, FakePosition>();
  private exchangeOrderSeq = 0;
  private tradeSeq = 0;
  private connections = 0;

  private constructor(wss: WebSocketServer, options: FakeDiffServerOptions) {
    this.wss = wss;
    const quotes = options.quotes ?? FAKE_DEFAULT_QUOTES;
    for (const [symbol, quote] of Object.entries(quotes)) {
      this.quotes.set(symbol, { ...(FAKE_DEFAULT_QUOTES['SHFE.cu2601'] as FakeQuote), ...quote });
    }
    this.instruments = options.instruments ?? defaultInstruments([...this.quotes.keys()]);
    this.account = { ...FAKE_DEFAULT_ACCOUNT, ...options.account };
    this.reject = options.reject;
    for (const [symbol, position] of Object.entries(options.positions ?? {})) {
      this.positions.set(symbol, { long_his: 0, long_today: 0, short_his: 0, short_today: 0, ...position });
    }
    wss.on('connection', (ws) => this.handleConnection(ws));
  }

  /** Starts a server on 127.0.0.1 with an ephemeral port. */
  static async start(options: FakeDiffServerOptions = {}): Promise<FakeDiffServer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    return new FakeDiffServer(wss, options);
  }

  get port(): number {
    return (this.wss.address() as AddressInfo).port;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Sockets open now. */
  get openConnections(): number {
    return this.clients.size;
  }

  /** Sockets accepted since the start. */
  get totalConnections(): number {
    return this.connections;
  }

  /** Client packets with this aid. */
  receivedOf(aid: string): JsonObject[] {
    return this.received.filter((m) => m.aid === aid);
  }

  getPosition(symbol: string): FakePosition {
    return { ...this.position(symbol) };
  }

  getQuote(symbol: string): FakeQuote | undefined {
    const quote = this.quotes.get(symbol);
    return quote ? { ...quote } : undefined;
  }

  /** Moves a quote (creating it if new): subscribers get the change, resting orders may fill. */
  setQuote(symbol: string, fields: Partial<FakeQuote>): void {
    const quote = this.quotes.get(symbol);
    const next = { ...(quote ?? (FAKE_DEFAULT_QUOTES['SHFE.cu2601'] as FakeQuote)), ...fields };
    this.quotes.set(symbol, next);
    this.publishQuote(symbol, quote ? { ...fields } : { ...next });
    for (const order of [...this.orders.values()]) {
      if (order.status === 'ALIVE' && `${order.exchange_id}.${order.instrument_id}` === symbol) {
        const trades = this.match(order);
        if (Object.keys(trades).length > 0) this.publishOrder(order, trades);
      }
    }
  }

  /** Sends a notify to every connection (logged in or not). */
  notifyAll(level: 'INFO' | 'WARNING' | 'ERROR', content: string, code = 0): void {
    for (const client of this.clients.values()) this.notify(client, level, content, code);
  }

  /** Cuts every connection at once (no close handshake), like a network failure. */
  dropConnections(): void {
    for (const ws of this.clients.keys()) ws.terminate();
  }

  async close(): Promise<void> {
    for (const ws of this.clients.keys()) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private handleConnection(ws: WebSocket): void {
    this.connections += 1;
    const client: Client = { ws, peek: false, outbox: [], insList: [], loggedIn: false, notifySeq: 0 };
    this.clients.set(ws, client);
    ws.on('message', (raw: RawData) => this.handleMessage(client, raw));
    ws.on('close', () => this.clients.delete(ws));
    ws.on('error', () => this.clients.delete(ws));
  }

  private handleMessage(client: Client, raw: RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw));
    } catch {
      return;
    }
    if (!isJsonObject(message)) return;
    if (message.aid !== 'peek_message') this.received.push(message);
    switch (message.aid) {
      case 'peek_message':
        client.peek = true;
        this.flush(client);
        return;
      case 'subscribe_quote':
        return this.subscribe(client, message);
      case 'ins_query':
        return this.insQuery(client, message);
      case 'req_login':
        return this.login(client, message);
      case 'confirm_settlement':
        if (client.loggedIn) this.notify(client, 'INFO', '确认结算单成功');
        return;
      case 'insert_order':
        return this.insertOrder(client, message);
      case 'cancel_order':
        return this.cancelOrder(client, message);
      default:
        return;
    }
  }

  private push(client: Client, patch: JsonObject): void {
    client.outbox.push(patch);
    this.flush(client);
  }

  private flush(client: Client): void {
    if (!client.peek || client.outbox.length === 0 || client.ws.readyState !== client.ws.OPEN) return;
    client.peek = false;
    const data = client.outbox;
    client.outbox = [];
    client.ws.send(JSON.stringify({ aid: 'rtn_data', data }));
  }

  private notify(client: Client, level: string, content: string, code = 0): void {
    client.notifySeq += 1;
    this.push(client, { notify: { [`N${client.notifySeq}`]: { type: 'MESSAGE', level, code, content } } });
  }

  private quotePatch(fields: Partial<FakeQuote>): JsonObject {
    const out: JsonObject = { datetime: fields.datetime ?? quoteDatetime(Date.now()) };
    // NaN goes as null, which the merge patch removes: the field is empty again.
    for (const [k, v] of Object.entries(fields)) if (typeof v === 'number') out[k] = Number.isNaN(v) ? null : v;
    return out;
  }

  private publishQuote(symbol: string, fields: Partial<FakeQuote>): void {
    for (const client of this.clients.values()) {
      if (client.insList.includes(symbol)) this.push(client, { quotes: { [symbol]: this.quotePatch(fields) } });
    }
  }

  private subscribe(client: Client, message: JsonObject): void {
    const list = typeof message.ins_list === 'string' ? message.ins_list.split(',').filter((s) => s !== '') : [];
    const added = list.filter((s) => !client.insList.includes(s));
    client.insList = list;
    const quotes: JsonObject = {};
    for (const symbol of added) {
      const quote = this.quotes.get(symbol);
      if (quote) quotes[symbol] = { instrument_id: symbol, ...this.quotePatch(quote) };
    }
    this.push(client, { ins_list: list.join(','), quotes });
  }

  private insQuery(client: Client, message: JsonObject): void {
    const queryId = typeof message.query_id === 'string' ? message.query_id : '';
    let variables: JsonValue = message.variables ?? {};
    if (typeof variables === 'string') {
      try {
        variables = JSON.parse(variables) as JsonValue;
      } catch {
        variables = {};
      }
    }
    const vars = isJsonObject(variables) ? variables : {};
    const list = (key: string): string[] | undefined => {
      const v = vars[key];
      if (typeof v === 'string') return [v];
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
    };
    const classes = list('class') ?? list('class_');
    const exchanges = list('exchange_id');
    const products = list('product_id');
    const symbols = list('instrument_id');
    const expired = typeof vars.expired === 'boolean' ? vars.expired : undefined;
    const result: JsonObject[] = this.instruments
      .filter((i) => !classes || classes.includes(i.class))
      .filter((i) => !exchanges || exchanges.includes(i.symbol.split('.')[0] ?? ''))
      .filter((i) => !products || products.includes(i.productId))
      .filter((i) => !symbols || symbols.includes(i.symbol))
      .filter((i) => expired === undefined || i.expired === expired)
      .map((i) => ({
        class: i.class,
        instrument_id: i.symbol,
        instrument_name: i.name,
        exchange_id: i.symbol.split('.')[0] ?? '',
        price_tick: i.priceTick,
        volume_multiple: i.volumeMultiple,
        product_id: i.productId,
        expired: i.expired,
        expire_datetime: i.expireDatetime,
      }));
    this.push(client, {
      symbols: { [queryId]: { query: message.query ?? '', variables: vars, result: { multi_symbol_info: result } } },
    });
  }

  private userSection(): JsonObject {
    const orders: JsonObject = {};
    for (const order of this.orders.values()) orders[order.order_id] = { ...order };
    const trades: JsonObject = {};
    for (const [id, trade] of this.trades) trades[id] = { ...trade };
    return {
      user_id: this.account.userName,
      session: { user_id: this.account.userName, trading_day: this.account.tradingDay },
      trade_more_data: false,
      accounts: { CNY: { user_id: this.account.userName, currency: 'CNY', balance: 1_000_000, available: 1_000_000 } },
      positions: Object.fromEntries([...this.positions.keys()].map((symbol) => [symbol, this.positionNode(symbol)])),
      orders,
      trades,
    };
  }

  private login(client: Client, message: JsonObject): void {
    const ok =
      message.bid === this.account.brokerId &&
      message.user_name === this.account.userName &&
      message.password === this.account.password;
    if (!ok) {
      this.notify(client, 'ERROR', '交易服务器登录失败,CTP:不合法的登录', 3);
      return;
    }
    client.loggedIn = true;
    this.notify(client, 'INFO', '登录成功');
    this.push(client, { trade: { [this.account.userName]: this.userSection() } });
  }

  private position(symbol: string): FakePosition {
    let position = this.positions.get(symbol);
    if (!position) {
      position = { long_his: 0, long_today: 0, short_his: 0, short_today: 0 };
      this.positions.set(symbol, position);
    }
    return position;
  }

  /** A DIFF position: pos_* and volume_* (TqSdk reads pos_*, the DIFF spec names volume_*). */
  private positionNode(symbol: string): JsonObject {
    const p = this.position(symbol);
    const [exchange_id = '', instrument_id = ''] = symbol.split('.');
    return {
      exchange_id,
      instrument_id,
      pos_long_his: p.long_his,
      pos_long_today: p.long_today,
      pos_short_his: p.short_his,
      pos_short_today: p.short_today,
      volume_long_his: p.long_his,
      volume_long_today: p.long_today,
      volume_short_his: p.short_his,
      volume_short_today: p.short_today,
      volume_long: p.long_his + p.long_today,
      volume_short: p.short_his + p.short_today,
    };
  }

  /** Why a closing order cannot be taken (positions too small for the offset), or undefined. */
  private closeReason(order: FakeOrder): string | undefined {
    if (order.offset === 'OPEN') return undefined;
    const p = this.position(`${order.exchange_id}.${order.instrument_id}`);
    const long = order.direction === 'SELL';
    const his = long ? p.long_his : p.short_his;
    const today = long ? p.long_today : p.short_today;
    if (!CLOSE_TODAY_EXCHANGES.has(order.exchange_id))
      return his + today >= order.volume_orign ? undefined : '平仓手数不足';
    if (order.offset === 'CLOSETODAY') return today >= order.volume_orign ? undefined : '平今仓位不足';
    return his >= order.volume_orign ? undefined : '平昨仓位不足';
  }

  private applyFill(order: FakeOrder, volume: number): void {
    const p = this.position(`${order.exchange_id}.${order.instrument_id}`);
    const buy = order.direction === 'BUY';
    if (order.offset === 'OPEN') {
      if (buy) p.long_today += volume;
      else p.short_today += volume;
      return;
    }
    const todayOnly = order.offset === 'CLOSETODAY' && CLOSE_TODAY_EXCHANGES.has(order.exchange_id);
    const hisOnly = order.offset === 'CLOSE' && CLOSE_TODAY_EXCHANGES.has(order.exchange_id);
    let his = buy ? p.short_his : p.long_his;
    let today = buy ? p.short_today : p.long_today;
    const fromHis = todayOnly ? 0 : hisOnly ? volume : Math.min(his, volume);
    his -= fromHis;
    today -= volume - fromHis;
    if (buy) [p.short_his, p.short_today] = [his, today];
    else [p.long_his, p.long_today] = [his, today];
  }

  private publishOrder(order: FakeOrder, trades: JsonObject = {}): void {
    const symbol = `${order.exchange_id}.${order.instrument_id}`;
    const section: JsonObject = { orders: { [order.order_id]: { ...order } }, trades };
    if (Object.keys(trades).length > 0) section.positions = { [symbol]: this.positionNode(symbol) };
    const patch: JsonObject = { trade: { [this.account.userName]: section } };
    for (const client of this.clients.values()) if (client.loggedIn) this.push(client, patch);
  }

  private insertOrder(client: Client, message: JsonObject): void {
    if (!client.loggedIn) {
      this.notify(client, 'ERROR', '下单失败,用户未登录');
      return;
    }
    const orderId = typeof message.order_id === 'string' ? message.order_id : '';
    if (orderId === '' || this.orders.has(orderId)) {
      this.notify(client, 'WARNING', '下单失败,委托单号重复');
      return;
    }
    const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
    const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : NaN);
    const volume = num(message.volume);
    const order: FakeOrder = {
      user_id: this.account.userName,
      order_id: orderId,
      exchange_order_id: '',
      exchange_id: str(message.exchange_id),
      instrument_id: str(message.instrument_id),
      direction: str(message.direction),
      offset: str(message.offset),
      volume_orign: volume,
      volume_left: volume,
      price_type: str(message.price_type),
      limit_price: num(message.limit_price),
      volume_condition: str(message.volume_condition) || 'ANY',
      time_condition: str(message.time_condition) || 'GFD',
      status: 'ALIVE',
      last_msg: '报单已提交',
      insert_date_time: Date.now() * 1e6,
    };
    this.orders.set(orderId, order);
    const quote = this.quotes.get(`${order.exchange_id}.${order.instrument_id}`);
    const reason =
      this.reject?.(message) ??
      (!quote
        ? '合约不存在'
        : !Number.isInteger(volume) || volume <= 0
          ? '报单手数不合法'
          : order.price_type === 'ANY' && NO_MARKET_ORDERS.has(order.exchange_id)
            ? '交易所不支持市价单'
            : order.price_type === 'LIMIT' &&
                !(order.limit_price >= quote.lower_limit && order.limit_price <= quote.upper_limit)
              ? '报单价格超出涨跌停板'
              : this.closeReason(order));
    if (reason !== undefined) {
      order.status = 'FINISHED';
      order.last_msg = `已撤单报单被拒绝:${reason}`;
      this.notify(client, 'ERROR', `下单失败,${reason}`);
      this.publishOrder(order);
      return;
    }
    // Accepted by the exchange first, then (maybe) traded: two patches, as two callbacks in CTP.
    this.exchangeOrderSeq += 1;
    order.exchange_order_id = String(100000 + this.exchangeOrderSeq);
    order.last_msg = '未成交';
    this.publishOrder(order);
    const trades = this.match(order);
    if (order.status === 'ALIVE' && order.time_condition === 'IOC') {
      order.status = 'FINISHED';
      order.last_msg = order.volume_left < order.volume_orign ? '部分成交不在队列中' : '已撤单';
    }
    if (Object.keys(trades).length > 0 || order.status === 'FINISHED') this.publishOrder(order, trades);
  }

  /** Fills what the quote's best opposite level allows; returns the new trades and updates order and quote. */
  private match(order: FakeOrder): JsonObject {
    const symbol = `${order.exchange_id}.${order.instrument_id}`;
    const quote = this.quotes.get(symbol);
    if (!quote || order.volume_left <= 0) return {};
    const buy = order.direction === 'BUY';
    const price = buy ? quote.ask_price1 : quote.bid_price1;
    const available = buy ? quote.ask_volume1 : quote.bid_volume1;
    const marketable =
      Number.isFinite(price) &&
      available > 0 &&
      (order.price_type === 'ANY' || (buy ? order.limit_price >= price : order.limit_price <= price));
    if (!marketable) return {};
    const volume = Math.min(order.volume_left, available);
    if (order.volume_condition === 'ALL' && volume < order.volume_left) return {};
    this.tradeSeq += 1;
    const tradeId = `${order.order_id}|${this.tradeSeq}`;
    const trade: JsonObject = {
      user_id: this.account.userName,
      order_id: order.order_id,
      trade_id: tradeId,
      exchange_trade_id: String(900000 + this.tradeSeq),
      exchange_id: order.exchange_id,
      instrument_id: order.instrument_id,
      direction: order.direction,
      offset: order.offset,
      volume,
      price,
      trade_date_time: Date.now() * 1e6,
    };
    this.trades.set(tradeId, trade);
    this.applyFill(order, volume);
    order.volume_left -= volume;
    if (order.volume_left === 0) {
      order.status = 'FINISHED';
      order.last_msg = '全部成交';
    } else {
      order.last_msg = '部分成交还在队列中';
    }
    const left = available - volume;
    const change: Partial<FakeQuote> = buy ? { ask_volume1: left } : { bid_volume1: left };
    change.last_price = price;
    change.volume = quote.volume + volume;
    this.quotes.set(symbol, { ...quote, ...change });
    this.publishQuote(symbol, change);
    return { [tradeId]: trade };
  }

  private cancelOrder(client: Client, message: JsonObject): void {
    if (!client.loggedIn) {
      this.notify(client, 'ERROR', '撤单失败,用户未登录');
      return;
    }
    const order = typeof message.order_id === 'string' ? this.orders.get(message.order_id) : undefined;
    if (!order || order.status !== 'ALIVE') {
      this.notify(client, 'WARNING', '撤单失败,报单不存在或已完成');
      return;
    }
    order.status = 'FINISHED';
    order.last_msg = '已撤单';
    this.publishOrder(order);
  }
}
