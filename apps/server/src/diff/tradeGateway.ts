import type { GatewayEvent, GatewayOrder, GatewayOrderState, GatewayStatus, TradingGateway } from '../trading/gateway';
import { silentLogger, type Logger } from '../platform/logger';
import { type BackoffOptions, DiffConnection, type DiffMessage } from './connection';
import { getObject, getPath, isJsonObject, type JsonObject, type JsonValue } from './mergePatch';

/**
 * A real broker account through a DIFF trade server (open-trade-gateway, or any TqSdk-compatible
 * trade front): `{aid: 'req_login', bid, user_name, password}` on every (re)connect, then the account
 * section arrives under `trade[user_name]`: `session` {user_id, trading_day} (older gateways put
 * `trading_day` directly on the user), `trade_more_data` (true while the initial section is still coming),
 * `accounts`, `positions`, `orders[order_id]`, `trades[trade_id]`. Login success and failure are also told
 * as `notify` messages ('登录成功'; '交易服务器登录失败,…' — level WARNING in open-trade-gateway, ERROR elsewhere).
 *
 * Login = a session (trading_day) seen on this connection, or a '登录成功' notify, with `trade_more_data`
 * not true. Then `confirm_settlement` is sent once. A login failure stops the gateway for good (no retries
 * with a wrong password: CTP locks accounts after repeated failures); make a new gateway with new credentials.
 *
 * Orders carry `order_id` = prefix + our order id ('pfp123'), so after a reconnect or a restart the
 * server's section tells what became of them. Events are derived from that section:
 * - accepted: the order got an exchange_order_id (or a trade);
 * - trade: each record of `trades` with our order_id, once per trade id;
 * - cancelled: FINISHED with volume_left > 0 after something reached the exchange (message = last_msg);
 * - rejected: FINISHED without exchange_order_id and without trades (message = last_msg, else the last
 *   error notify).
 * A final event waits until the trade records add up to volume_orign − volume_left, so a `cancelled`
 * never overtakes the trades before it.
 *
 * Events are given for orders this gateway inserted, cancelled or queried; for one found only by
 * `queryOrder`/`cancelOrder`, what the answer already showed is not sent again.
 */

export interface LimitPriceSource {
  getQuote(symbol: string): { upper_limit: number; lower_limit: number } | undefined;
}

export interface DiffTradeGatewayOptions {
  /** The trade server's WebSocket address (TRADE_URL), e.g. ws://otg.example:7788. */
  url: string;
  /** Broker id as the trade server names it (`bid` of req_login). */
  brokerId: string;
  userName: string;
  password: string;
  logger?: Logger;
  /** Limit-up/limit-down prices for MARKET orders where the exchange has none (e.g. a DiffMarketData). */
  quotes?: LimitPriceSource;
  /** Prefix of the broker-side order id (default 'pfp'). */
  orderIdPrefix?: string;
  backoff?: Partial<BackoffOptions>;
  headers?: Record<string, string>;
  pingIntervalMs?: number;
  /** `connect()` rejects when not logged in by then (default 30 s); reconnecting goes on. */
  connectTimeoutMs?: number;
  /** `queryOrder` waits this long for the login (default 10 s). */
  queryTimeoutMs?: number;
}

/** Exchanges taking market orders (price_type ANY): TqSdk refuses them on CFFEX, SHFE, INE and for DCE options. */
const MARKET_ORDER_EXCHANGES = new Set(['DCE', 'CZCE', 'GFEX']);

/** Exchanges where CLOSE closes only positions opened before today and today's need CLOSETODAY. */
const CLOSE_TODAY_EXCHANGES = new Set(['SHFE', 'INE']);

export function splitSymbol(symbol: string): { exchangeId: string; instrumentId: string } | undefined {
  const match = /^([A-Z]+)\.([A-Za-z0-9-]+)$/.exec(symbol);
  return match ? { exchangeId: match[1] ?? '', instrumentId: match[2] ?? '' } : undefined;
}

/** 'm2601-C-3000', 'cu2601C80000', 'SR601C6000', 'IO2601-C-4000'. */
function isOption(instrumentId: string): boolean {
  return /\d-?[CP]-?\d/.test(instrumentId);
}

/** Whether the exchange accepts a market (price_type ANY) order for this symbol, by TqSdk's rule. */
export function supportsMarketOrders(symbol: string): boolean {
  const parts = splitSymbol(symbol);
  if (!parts || !MARKET_ORDER_EXCHANGES.has(parts.exchangeId)) return false;
  return !(parts.exchangeId === 'DCE' && isOption(parts.instrumentId));
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The insert_order packet of an order (`closeToday`: send offset CLOSETODAY instead of CLOSE):
 * - LIMIT: price_type LIMIT, time_condition GFD (good for the day), volume_condition ANY;
 * - MARKET where the exchange has market orders: price_type ANY, time_condition IOC (TqSdk's market order);
 * - MARKET elsewhere (SHFE, INE, CFFEX, DCE options): FAK (LIMIT + IOC + volume ANY) at the limit-up price to
 *   buy / limit-down price to sell, or at the order's own limit price when those are unknown.
 * Throws (with a Chinese message) for an order that cannot be sent.
 */
export function buildInsertOrder(
  order: GatewayOrder,
  userId: string,
  brokerOrderId: string,
  limits?: { upper_limit: number; lower_limit: number },
  closeToday = false,
): DiffMessage {
  const parts = splitSymbol(order.symbol);
  if (!parts) throw new Error(`合约代码不合法：${order.symbol}`);
  if (!Number.isInteger(order.volume) || order.volume <= 0) throw new Error(`下单手数不合法：${order.volume}`);
  const base: DiffMessage = {
    aid: 'insert_order',
    user_id: userId,
    order_id: brokerOrderId,
    exchange_id: parts.exchangeId,
    instrument_id: parts.instrumentId,
    direction: order.direction,
    offset: order.offset === 'CLOSE' && closeToday ? 'CLOSETODAY' : order.offset,
    volume: order.volume,
    volume_condition: 'ANY',
  };
  if (order.priceType === 'LIMIT') {
    const price = positive(order.limitPrice);
    if (price === undefined) throw new Error(`限价单价格不合法：${order.limitPrice}`);
    return { ...base, price_type: 'LIMIT', limit_price: price, time_condition: 'GFD' };
  }
  if (supportsMarketOrders(order.symbol)) return { ...base, price_type: 'ANY', time_condition: 'IOC' };
  const price =
    positive(order.direction === 'BUY' ? limits?.upper_limit : limits?.lower_limit) ?? positive(order.limitPrice);
  if (price === undefined) throw new Error(`${order.symbol} 不支持市价单，且没有涨跌停价可用`);
  return { ...base, price_type: 'LIMIT', limit_price: price, time_condition: 'IOC' };
}

interface Tracked {
  orderId: string;
  accepted: boolean;
  trades: Set<string>;
  tradedVolume: number;
  done: boolean;
}

interface TradeRecord {
  tradeId: string;
  volume: number;
  price: number;
  at: Date;
  ns: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Done orders remembered (so a repeated insert of a finished order sends nothing and emits nothing). */
const MAX_DONE = 50_000;

function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

function num(value: JsonValue | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
}

export class DiffTradeGateway implements TradingGateway {
  private readonly options: DiffTradeGatewayOptions;
  private readonly connection: DiffConnection;
  private readonly logger: Logger;
  private readonly prefix: string;
  private readonly listeners = new Set<(event: GatewayEvent) => void>();
  private readonly tracked = new Map<string, Tracked>();
  private readonly active = new Set<string>();
  private readonly sentThisConnection = new Set<string>();
  private readonly waiters = new Set<Waiter>();
  private current: GatewayStatus = { status: 'error', message: '连接中' };
  private started = false;
  private closed = false;
  private everConnected = false;
  private loggedIn = false;
  private loginFailure: string | null = null;
  private sessionSeen = false;
  private loginNotified = false;
  private lastError = '';

  constructor(options: DiffTradeGatewayOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.prefix = options.orderIdPrefix ?? 'pfp';
    this.connection = new DiffConnection({
      url: options.url,
      name: 'trade',
      logger: this.logger,
      backoff: options.backoff,
      headers: options.headers,
      pingIntervalMs: options.pingIntervalMs,
    });
    this.connection.setStanding('req_login', {
      aid: 'req_login',
      bid: options.brokerId,
      user_name: options.userName,
      password: options.password,
    });
    this.connection.onOpen(() => this.handleOpen());
    this.connection.onClose(() => this.handleClose());
    this.connection.onData((patches) => this.handleData(patches));
  }

  /** The broker-side order id of one of our orders. */
  brokerOrderId(orderId: string): string {
    return `${this.prefix}${orderId}`;
  }

  /** Starts connecting; resolves once logged in, rejects on a login failure or after connectTimeoutMs. */
  async connect(): Promise<void> {
    if (this.closed) throw new Error('交易网关已关闭');
    if (!this.started) {
      this.started = true;
      this.logger.info(
        { url: this.options.url, broker: this.options.brokerId, user: this.options.userName },
        'DIFF trade gateway connecting',
      );
      this.connection.start();
    }
    await this.waitReady(this.options.connectTimeoutMs ?? 30_000);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.loggedIn = false;
    this.setStatus({ status: 'error', message: '连接已关闭' });
    this.rejectWaiters(new Error('交易网关已关闭'));
    await this.connection.close();
  }

  /** ok only while connected and logged in; otherwise 连接中 / 登录失败：… / 连接断开，正在重连 / 连接已关闭. */
  /** The account's positions (`trade[user].positions[symbol]` volume_long / volume_short), once logged in. */
  positions(): { instrument_id: string; long: number; short: number }[] | undefined {
    if (!this.loggedIn) return undefined;
    const positions = getObject(this.connection.data, 'trade', this.options.userName, 'positions') ?? {};
    return Object.entries(positions)
      .filter((entry): entry is [string, JsonObject] => isJsonObject(entry[1]))
      .map(([symbol, p]) => ({ instrument_id: symbol, long: num(p.volume_long), short: num(p.volume_short) }))
      .filter((p) => p.long !== 0 || p.short !== 0);
  }

  status(): GatewayStatus {
    if (this.loggedIn && this.connection.isOpen()) return { status: 'ok' };
    if (this.current.status === 'ok') return { status: 'error', message: '连接断开，正在重连' };
    return { ...this.current };
  }

  onEvent(listener: (event: GatewayEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends the order unless the server already has it (or it went out on this connection): idempotent by
   * orderId. Throws while not logged in. An order that cannot be sent at all (bad symbol or volume, market
   * order without a usable price) gets a `rejected` event instead.
   */
  async insertOrder(order: GatewayOrder): Promise<void> {
    this.assertReady();
    const id = this.brokerOrderId(order.orderId);
    const existing = this.tracked.get(id);
    if (existing?.done) return;
    if (this.orderNode(id) || this.sentThisConnection.has(id)) {
      this.logger.info({ orderId: order.orderId }, 'DIFF insert_order skipped: the server already has the order');
      this.track(order.orderId, id);
      this.scan([id]);
      return;
    }
    let pack: DiffMessage;
    try {
      pack = buildInsertOrder(order, this.options.userName, id, this.limitsFor(order.symbol), this.closeToday(order));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn({ orderId: order.orderId, message }, 'DIFF order not sent');
      queueMicrotask(() => this.emit({ type: 'rejected', orderId: order.orderId, message }));
      return;
    }
    this.track(order.orderId, id);
    if (!this.connection.send(pack)) throw new Error('交易网关未就绪：连接断开，正在重连');
    this.sentThisConnection.add(id);
    this.logger.info(
      {
        orderId: order.orderId,
        symbol: order.symbol,
        direction: order.direction,
        offset: pack.offset,
        volume: order.volume,
        priceType: pack.price_type,
        limitPrice: pack.limit_price,
        timeCondition: pack.time_condition,
      },
      'DIFF insert_order sent',
    );
  }

  async cancelOrder(orderId: string): Promise<void> {
    this.assertReady();
    const id = this.brokerOrderId(orderId);
    if (!this.tracked.has(id)) this.adopt(orderId, id);
    if (!this.connection.send({ aid: 'cancel_order', user_id: this.options.userName, order_id: id }))
      throw new Error('交易网关未就绪：连接断开，正在重连');
    this.logger.info({ orderId }, 'DIFF cancel_order sent');
  }

  /** The server's view of the order (after waiting for the login, up to queryTimeoutMs). */
  async queryOrder(orderId: string): Promise<GatewayOrderState> {
    await this.waitReady(this.options.queryTimeoutMs ?? 10_000);
    const id = this.brokerOrderId(orderId);
    const order = this.orderNode(id);
    const trades = this.tradesByOrder(new Set([id])).get(id) ?? [];
    if (!order && trades.length === 0) return { known: false, volumeTraded: 0, trades: [] };
    if (!this.tracked.has(id)) this.adopt(orderId, id);
    const fromTrades = trades.reduce((sum, t) => sum + t.volume, 0);
    const fromOrder = order ? num(order.volume_orign) - num(order.volume_left) : NaN;
    const state: GatewayOrderState = {
      known: true,
      volumeTraded: Number.isFinite(fromOrder) ? fromOrder : fromTrades,
      trades: trades.map(({ tradeId, volume, price, at }) => ({ tradeId, volume, price, at })),
    };
    const status = order?.status;
    if (status === 'ALIVE' || status === 'FINISHED') state.status = status;
    const message = str(order?.last_msg);
    if (message !== '') state.message = message;
    return state;
  }

  // ---- connection events -------------------------------------------------------------------------

  private handleOpen(): void {
    this.everConnected = true;
    this.loggedIn = false;
    this.sessionSeen = false;
    this.loginNotified = false;
    this.sentThisConnection.clear();
    this.setStatus({ status: 'error', message: '连接中' });
  }

  private handleClose(): void {
    this.loggedIn = false;
    if (this.closed || this.loginFailure !== null) return;
    this.setStatus({ status: 'error', message: this.everConnected ? '连接断开，正在重连' : '连接中' });
  }

  private handleData(patches: JsonObject[]): void {
    if (this.closed || this.loginFailure !== null) return;
    const user = this.options.userName;
    let touched = false;
    for (const patch of patches) {
      const notify = patch.notify;
      if (isJsonObject(notify)) {
        for (const item of Object.values(notify)) if (isJsonObject(item)) this.handleNotify(item);
        if (this.loginFailure !== null) return;
      }
      const section = getObject(patch, 'trade', user);
      if (!section) continue;
      touched = true;
      if (str(getPath(section, 'session', 'trading_day')) !== '' || str(section.trading_day) !== '')
        this.sessionSeen = true;
    }
    if (!this.loggedIn && (this.sessionSeen || this.loginNotified)) {
      const userTree = getObject(this.connection.data, 'trade', user);
      if (userTree && userTree.trade_more_data !== true) this.handleLoggedIn(userTree);
    }
    if (touched && this.active.size > 0) this.scan([...this.active]);
  }

  private handleNotify(item: JsonObject): void {
    const level = str(item.level) || 'INFO';
    const content = str(item.content);
    const code = item.code ?? null;
    if (level === 'ERROR' || level === 'WARNING') {
      this.logger.warn({ level, code, content }, 'DIFF trade notify');
      this.lastError = content;
    } else {
      this.logger.info({ level, code, content }, 'DIFF trade notify');
    }
    if (this.loggedIn) return;
    if (content.includes('登录失败') || level === 'ERROR') this.handleLoginFailure(content);
    else if (content.includes('登录成功')) this.loginNotified = true;
  }

  private handleLoggedIn(userTree: JsonObject): void {
    this.loggedIn = true;
    const tradingDay = str(getPath(userTree, 'session', 'trading_day')) || str(userTree.trading_day);
    this.logger.info({ user: this.options.userName, tradingDay }, 'DIFF trade login succeeded');
    this.connection.send({ aid: 'confirm_settlement' });
    this.setStatus({ status: 'ok' });
    for (const waiter of [...this.waiters]) waiter.resolve();
    this.waiters.clear();
  }

  private handleLoginFailure(content: string): void {
    const reason = content.replace(/^.*?登录失败[\s,，:：]*/, '') || content || '未知原因';
    this.loginFailure = `登录失败：${reason}`;
    this.logger.warn({ user: this.options.userName, reason }, 'DIFF trade login failed; not retrying');
    this.setStatus({ status: 'error', message: this.loginFailure });
    this.rejectWaiters(new Error(this.loginFailure));
    void this.connection.close();
  }

  // ---- orders --------------------------------------------------------------------------------------

  private orderNode(brokerOrderId: string): JsonObject | undefined {
    return getObject(this.connection.data, 'trade', this.options.userName, 'orders', brokerOrderId);
  }

  private track(orderId: string, id: string): Tracked {
    let tracked = this.tracked.get(id);
    if (!tracked) {
      tracked = { orderId, accepted: false, trades: new Set(), tradedVolume: 0, done: false };
      this.tracked.set(id, tracked);
    }
    if (!tracked.done) this.active.add(id);
    return tracked;
  }

  /** Starts following an order found on the server, taking what it shows now as already reported. */
  private adopt(orderId: string, id: string): void {
    const tracked = this.track(orderId, id);
    const order = this.orderNode(id);
    const trades = this.tradesByOrder(new Set([id])).get(id) ?? [];
    for (const trade of trades) {
      tracked.trades.add(trade.tradeId);
      tracked.tradedVolume += trade.volume;
    }
    if (str(order?.exchange_order_id).trim() !== '' || trades.length > 0) tracked.accepted = true;
    if (order?.status === 'FINISHED' && this.consistent(order, tracked)) this.finish(id, tracked);
  }

  private consistent(order: JsonObject, tracked: Tracked): boolean {
    const traded = num(order.volume_orign) - num(order.volume_left);
    return !Number.isFinite(traded) || tracked.tradedVolume >= traded;
  }

  private finish(id: string, tracked: Tracked): void {
    tracked.done = true;
    this.active.delete(id);
    if (this.tracked.size > MAX_DONE) {
      for (const [key, value] of this.tracked) {
        if (this.tracked.size <= MAX_DONE) break;
        if (value.done) this.tracked.delete(key);
      }
    }
  }

  /** Trade records of the given broker order ids, oldest first. */
  private tradesByOrder(ids: Set<string>): Map<string, TradeRecord[]> {
    const out = new Map<string, TradeRecord[]>();
    const trades = getObject(this.connection.data, 'trade', this.options.userName, 'trades');
    if (!trades) return out;
    for (const [tradeId, trade] of Object.entries(trades)) {
      if (!isJsonObject(trade)) continue;
      const orderId = str(trade.order_id);
      if (!ids.has(orderId)) continue;
      const ns = num(trade.trade_date_time);
      const record: TradeRecord = {
        tradeId,
        volume: num(trade.volume),
        price: num(trade.price),
        at: Number.isFinite(ns) ? new Date(Math.round(ns / 1e6)) : new Date(),
        ns: Number.isFinite(ns) ? ns : 0,
      };
      const list = out.get(orderId);
      if (list) list.push(record);
      else out.set(orderId, [record]);
    }
    for (const list of out.values()) list.sort((a, b) => a.ns - b.ns || (a.tradeId < b.tradeId ? -1 : 1));
    return out;
  }

  private scan(ids: string[]): void {
    const byOrder = this.tradesByOrder(new Set(ids));
    const events: GatewayEvent[] = [];
    for (const id of ids) {
      const tracked = this.tracked.get(id);
      if (!tracked || tracked.done) continue;
      const order = this.orderNode(id);
      const trades = byOrder.get(id) ?? [];
      const exchangeOrderId = str(order?.exchange_order_id).trim();
      if (!tracked.accepted && (exchangeOrderId !== '' || trades.length > 0)) {
        tracked.accepted = true;
        events.push(
          exchangeOrderId !== ''
            ? { type: 'accepted', orderId: tracked.orderId, exchangeOrderId }
            : { type: 'accepted', orderId: tracked.orderId },
        );
      }
      for (const trade of trades) {
        if (tracked.trades.has(trade.tradeId)) continue;
        tracked.trades.add(trade.tradeId);
        tracked.tradedVolume += trade.volume;
        const { tradeId, volume, price, at } = trade;
        events.push({ type: 'trade', orderId: tracked.orderId, tradeId, volume, price, at });
      }
      if (!order || order.status !== 'FINISHED' || !this.consistent(order, tracked)) continue;
      const left = num(order.volume_left);
      const traded = num(order.volume_orign) - left;
      const lastMsg = str(order.last_msg);
      if (left > 0) {
        if (traded === 0 && !tracked.accepted) {
          events.push({
            type: 'rejected',
            orderId: tracked.orderId,
            message: lastMsg || this.lastError || '报单被拒绝',
          });
        } else {
          events.push({ type: 'cancelled', orderId: tracked.orderId, message: lastMsg || '已撤单' });
        }
      }
      this.finish(id, tracked);
    }
    for (const event of events) this.emit(event);
  }

  /**
   * SHFE/INE: whether a CLOSE must go out as CLOSETODAY, from `trade[user].positions[symbol]` (pos_*_his /
   * pos_*_today as TqSdk reads them, else the spec's volume_*; minus volume_*_frozen_* when given): CLOSE
   * when the older lots cover the volume, else CLOSETODAY when today's do. An order needing both is sent
   * as CLOSE and the broker rejects it (split it into two orders).
   */
  private closeToday(order: GatewayOrder): boolean {
    const parts = splitSymbol(order.symbol);
    if (order.offset !== 'CLOSE' || !parts || !CLOSE_TODAY_EXCHANGES.has(parts.exchangeId)) return false;
    const position = getObject(this.connection.data, 'trade', this.options.userName, 'positions', order.symbol);
    if (!position) return false;
    const side = order.direction === 'SELL' ? 'long' : 'short';
    const lots = (period: 'his' | 'today'): number => {
      const held = num(position[`pos_${side}_${period}`]);
      const total = Number.isFinite(held) ? held : num(position[`volume_${side}_${period}`]);
      const frozen = num(position[`volume_${side}_frozen_${period}`]);
      return (Number.isFinite(total) ? total : 0) - (Number.isFinite(frozen) ? frozen : 0);
    };
    return lots('his') < order.volume && lots('today') >= order.volume;
  }

  private limitsFor(symbol: string): { upper_limit: number; lower_limit: number } | undefined {
    const quote = this.options.quotes?.getQuote(symbol);
    if (quote && (Number.isFinite(quote.upper_limit) || Number.isFinite(quote.lower_limit))) return quote;
    const own = getObject(this.connection.data, 'quotes', symbol);
    return own ? { upper_limit: num(own.upper_limit), lower_limit: num(own.lower_limit) } : undefined;
  }

  // ---- status & waiting ----------------------------------------------------------------------------

  private assertReady(): void {
    if (this.loggedIn && this.connection.isOpen()) return;
    throw new Error(`交易网关未就绪：${this.status().message ?? '连接中'}`);
  }

  private waitReady(timeoutMs: number): Promise<void> {
    if (this.loggedIn && this.connection.isOpen()) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('交易网关已关闭'));
    if (this.loginFailure !== null) return Promise.reject(new Error(this.loginFailure));
    if (!this.started) return Promise.reject(new Error('交易网关未连接（先调用 connect）'));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`交易网关未就绪：${this.status().message ?? '连接中'}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private rejectWaiters(err: Error): void {
    for (const waiter of [...this.waiters]) waiter.reject(err);
    this.waiters.clear();
  }

  private setStatus(status: GatewayStatus): void {
    if (status.status === this.current.status && status.message === this.current.message) return;
    this.current = status;
    this.emit({ type: 'status', status: { ...status } });
  }

  private emit(event: GatewayEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'gateway event listener threw');
      }
    }
  }
}
