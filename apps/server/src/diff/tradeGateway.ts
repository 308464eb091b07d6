import type { GatewayEvent, GatewayOrder, GatewayOrderState, GatewayStatus, TradingGateway } from '../trading/gateway';
import { silentLogger, type Logger } from '../platform/logger';
import { type BackoffOptions, DiffConnection, type DiffMessage } from './connection';
import { getObject, getPath, isJsonObject, num, str, type JsonObject } from './mergePatch';
import { buildInsertOrder, closesToday } from './orderPacket';
import { OrderTracker } from './orderTracker';

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
 * server's section tells what became of them: orderTracker.ts derives the events from it; orderPacket.ts
 * builds what is sent.
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

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export class DiffTradeGateway implements TradingGateway {
  private readonly options: DiffTradeGatewayOptions;
  private readonly connection: DiffConnection;
  private readonly logger: Logger;
  private readonly prefix: string;
  private readonly listeners = new Set<(event: GatewayEvent) => void>();
  private readonly orders: OrderTracker;
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
    this.orders = new OrderTracker(() => getObject(this.connection.data, 'trade', options.userName));
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
    if (this.orders.isDone(id)) return;
    if (this.orders.orderNode(id) || this.sentThisConnection.has(id)) {
      this.logger.info({ orderId: order.orderId }, 'DIFF insert_order skipped: the server already has the order');
      this.orders.track(order.orderId, id);
      this.scan([id]);
      return;
    }
    let pack: DiffMessage;
    try {
      pack = buildInsertOrder(order, this.options.userName, id, this.limitsFor(order.symbol), this.closesToday(order));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn({ orderId: order.orderId, message }, 'DIFF order not sent');
      queueMicrotask(() => this.emit({ type: 'rejected', orderId: order.orderId, message }));
      return;
    }
    this.orders.track(order.orderId, id);
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
    if (!this.orders.has(id)) this.orders.adopt(orderId, id);
    if (!this.connection.send({ aid: 'cancel_order', user_id: this.options.userName, order_id: id }))
      throw new Error('交易网关未就绪：连接断开，正在重连');
    this.logger.info({ orderId }, 'DIFF cancel_order sent');
  }

  /** The server's view of the order (after waiting for the login, up to queryTimeoutMs). */
  async queryOrder(orderId: string): Promise<GatewayOrderState> {
    await this.waitReady(this.options.queryTimeoutMs ?? 10_000);
    const id = this.brokerOrderId(orderId);
    const order = this.orders.orderNode(id);
    const trades = this.orders.tradesByOrder(new Set([id])).get(id) ?? [];
    if (!order && trades.length === 0) return { known: false, volumeTraded: 0, trades: [] };
    if (!this.orders.has(id)) this.orders.adopt(orderId, id);
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
    const active = touched ? this.orders.activeIds() : [];
    if (active.length > 0) this.scan(active);
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

  /** Gives the events of these orders not given yet (OrderTracker). */
  private scan(ids: string[]): void {
    for (const event of this.orders.scan(ids, this.lastError)) this.emit(event);
  }

  /** SHFE/INE: whether a CLOSE goes out as CLOSETODAY, by the account's position (orderPacket.ts). */
  private closesToday(order: GatewayOrder): boolean {
    return closesToday(
      order,
      getObject(this.connection.data, 'trade', this.options.userName, 'positions', order.symbol),
    );
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
