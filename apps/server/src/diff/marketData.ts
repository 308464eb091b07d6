import { silentLogger, type Logger } from '../platform/logger';
import type { Quote } from '../platform/quote';
import { DiffConnection, type DiffConnectionOptions, type DiffMessage } from './connection';
import { getObject, isJsonObject, num, type JsonObject, type JsonValue } from './mergePatch';

/**
 * Market data over DIFF (MARKET_SOURCE=diff, MD_URL = the market-data WebSocket, e.g. Shinny's
 * md front or a local TqSdk-compatible gateway).
 *
 * - `subscribe_quote` carries the WHOLE list each time (a new one replaces the previous, shinnytech/diff
 *   funcset/quote.rst), so this class keeps the set and sends it as one standing instruction, re-sent
 *   after every reconnect.
 * - Quotes arrive as patches under `quotes[symbol]`; `onTick` gets the quotes a rtn_data changed.
 * - `queryInstruments` asks the instrument service with `ins_query` (a GraphQL query, as TqSdk does);
 *   the answer appears under `symbols[query_id]` = {query, variables, result: {multi_symbol_info: [...]}}
 *   or with `error`.
 */

const NUMERIC_FIELDS = [
  'last_price',
  'bid_price1',
  'ask_price1',
  'bid_volume1',
  'ask_volume1',
  'volume',
  'open_interest',
  'upper_limit',
  'lower_limit',
  'pre_settlement',
  'settlement',
] as const;

/** One quote as in DIFF (`quotes[symbol]`); a field the server did not send (or sent as '-') is NaN. */
export function toDiffQuote(symbol: string, raw: JsonObject): Quote {
  const quote: Quote = {
    symbol,
    datetime: typeof raw.datetime === 'string' ? raw.datetime : '',
    last_price: NaN,
    bid_price1: NaN,
    ask_price1: NaN,
    bid_volume1: NaN,
    ask_volume1: NaN,
    volume: NaN,
    open_interest: NaN,
    upper_limit: NaN,
    lower_limit: NaN,
    pre_settlement: NaN,
  };
  for (const field of NUMERIC_FIELDS) quote[field] = num(raw[field]);
  return quote;
}

export type InstrumentClass = 'FUTURE' | 'OPTION' | 'INDEX' | 'CONT' | 'COMBINE';

/** Filters of `queryInstruments`; omitted filters do not restrict. */
export interface InstrumentQuery {
  symbols?: string[];
  exchangeIds?: string[];
  productIds?: string[];
  classes?: InstrumentClass[];
  expired?: boolean;
}

export interface DiffInstrument {
  /** 'SHFE.cu2601' (the service's `instrument_id` is exchange-qualified). */
  symbol: string;
  exchangeId: string;
  /** 'cu2601'. */
  instrumentId: string;
  name: string;
  class: string;
  productId?: string;
  priceTick: number;
  volumeMultiple: number;
  expired?: boolean;
  /** From `expire_datetime` (ns since the epoch in the service, as TqSdk reads it). */
  expireAt?: Date;
  strikePrice?: number;
  callOrPut?: string;
  /** Underlying symbol of an option. */
  underlying?: string;
}

/** GraphQL fields asked for (fragments as in TqSdk's query_all_fields, trimmed to what we use). */
const INSTRUMENT_FIELDS =
  '... on basic { class instrument_id instrument_name exchange_id price_tick } ' +
  '... on tradeable { volume_multiple } ' +
  '... on future { expired product_id expire_datetime } ' +
  '... on option { expired expire_datetime strike_price call_or_put } ' +
  '... on derivative { underlying { edges { node { ... on basic { instrument_id } } } } }';

/**
 * The GraphQL query of `queryInstruments`, built like TqSdk's `_get_query_args`: one variable per filter,
 * `multi_symbol_info(instrument_id: [String], class: [Class], exchange_id: [String], product_id: [String], expired: Boolean)`.
 */
export function buildInstrumentQuery(q: InstrumentQuery): { query: string; variables: JsonObject } {
  const variables: JsonObject = {};
  const types: Record<string, string> = {};
  if (q.symbols) [variables.instrument_id, types.instrument_id] = [q.symbols, '[String]'];
  if (q.classes) [variables.class, types.class] = [q.classes, '[Class]'];
  if (q.exchangeIds) [variables.exchange_id, types.exchange_id] = [q.exchangeIds, '[String]'];
  if (q.productIds) [variables.product_id, types.product_id] = [q.productIds, '[String]'];
  if (q.expired !== undefined) [variables.expired, types.expired] = [q.expired, 'Boolean'];
  const names = Object.keys(types);
  const definitions = names.map((n) => `$${n}: ${types[n]}`).join(', ');
  const args = names.map((n) => `${n}: $${n}`).join(', ');
  const query =
    names.length > 0
      ? `query (${definitions}) { multi_symbol_info(${args}) { ${INSTRUMENT_FIELDS} } }`
      : `query { multi_symbol_info { ${INSTRUMENT_FIELDS} } }`;
  return { query, variables };
}

export function parseInstruments(result: JsonValue | undefined): DiffInstrument[] {
  const list = isJsonObject(result) ? result.multi_symbol_info : undefined;
  if (!Array.isArray(list)) return [];
  const out: DiffInstrument[] = [];
  for (const item of list) {
    if (!isJsonObject(item) || typeof item.instrument_id !== 'string') continue;
    const symbol = item.instrument_id;
    const dot = symbol.indexOf('.');
    const instrument: DiffInstrument = {
      symbol,
      exchangeId: typeof item.exchange_id === 'string' ? item.exchange_id : symbol.slice(0, Math.max(0, dot)),
      instrumentId: dot >= 0 ? symbol.slice(dot + 1) : symbol,
      name: typeof item.instrument_name === 'string' ? item.instrument_name : '',
      class: typeof item.class === 'string' ? item.class : '',
      priceTick: num(item.price_tick),
      volumeMultiple: num(item.volume_multiple),
    };
    if (typeof item.product_id === 'string') instrument.productId = item.product_id;
    if (typeof item.expired === 'boolean') instrument.expired = item.expired;
    if (typeof item.expire_datetime === 'number' && item.expire_datetime > 0)
      instrument.expireAt = new Date(Math.round(item.expire_datetime / 1e6));
    if (typeof item.strike_price === 'number') instrument.strikePrice = item.strike_price;
    if (typeof item.call_or_put === 'string') instrument.callOrPut = item.call_or_put;
    const edges = getObject(item, 'underlying')?.edges;
    const node = Array.isArray(edges) && isJsonObject(edges[0]) ? getObject(edges[0], 'node') : undefined;
    if (typeof node?.instrument_id === 'string') instrument.underlying = node.instrument_id;
    out.push(instrument);
  }
  return out;
}

export interface DiffMarketDataOptions extends Omit<DiffConnectionOptions, 'name'> {
  /** Timeout of `queryInstruments` (default 30 s). */
  queryTimeoutMs?: number;
}

interface PendingQuery {
  pack: DiffMessage;
  resolve: (instruments: DiffInstrument[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class DiffMarketData {
  readonly connection: DiffConnection;
  private readonly logger: Logger;
  private readonly symbols = new Set<string>();
  private readonly tickListeners = new Set<(quotes: Quote[]) => void>();
  private readonly pending = new Map<string, PendingQuery>();
  private readonly queryTimeoutMs: number;
  private querySeq = 0;
  private everConnected = false;
  private closed = false;

  constructor(options: DiffMarketDataOptions) {
    this.logger = options.logger ?? silentLogger;
    this.connection = new DiffConnection({ ...options, name: 'md' });
    this.queryTimeoutMs = options.queryTimeoutMs ?? 30_000;
    this.connection.onData((patches) => this.handleData(patches));
    this.connection.onOpen(() => {
      this.everConnected = true;
      for (const query of this.pending.values()) this.connection.send(query.pack);
    });
  }

  /** Starts connecting (idempotent); quotes flow once subscribed. */
  start(): void {
    this.connection.start();
  }

  /** Adds symbols ('SHFE.cu2601', exchange-qualified, case-sensitive) to the subscription. */
  subscribe(symbols: readonly string[]): void {
    const before = this.symbols.size;
    for (const s of symbols) if (s !== '') this.symbols.add(s);
    if (this.symbols.size !== before) this.sendSubscription();
  }

  unsubscribe(symbols: readonly string[]): void {
    let changed = false;
    for (const s of symbols) changed = this.symbols.delete(s) || changed;
    if (changed) this.sendSubscription();
  }

  subscribed(): string[] {
    return [...this.symbols];
  }

  /** The latest quote, or undefined before the server sent any of it. */
  getQuote(symbol: string): Quote | undefined {
    const raw = getObject(this.connection.data, 'quotes', symbol);
    return raw ? toDiffQuote(symbol, raw) : undefined;
  }

  /** The quotes each rtn_data changed (one call per rtn_data). */
  onTick(listener: (quotes: Quote[]) => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** Catalogue look-up through the instrument service (`ins_query`); see `buildInstrumentQuery`. */
  queryInstruments(query: InstrumentQuery = {}, timeoutMs = this.queryTimeoutMs): Promise<DiffInstrument[]> {
    if (this.closed) return Promise.reject(new Error('行情连接已关闭'));
    this.querySeq += 1;
    const queryId = `pfp_ins_${this.querySeq}`;
    const { query: text, variables } = buildInstrumentQuery(query);
    const pack: DiffMessage = { aid: 'ins_query', query_id: queryId, query: text, variables };
    return new Promise<DiffInstrument[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(queryId);
        reject(new Error(`合约查询超时（ins_query ${queryId}）`));
      }, timeoutMs);
      this.pending.set(queryId, { pack, resolve, reject, timer });
      this.connection.send(pack); // when not open, it is sent on (re)connect
    });
  }

  /** ok once the socket is open; otherwise a Chinese message. */
  status(): { status: 'ok' | 'error'; message?: string } {
    if (this.connection.isOpen()) return { status: 'ok' };
    if (this.closed) return { status: 'error', message: '行情连接已关闭' };
    return { status: 'error', message: this.everConnected ? '行情连接断开，正在重连' : '行情连接中' };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const query of this.pending.values()) {
      clearTimeout(query.timer);
      query.reject(new Error('行情连接已关闭'));
    }
    this.pending.clear();
    await this.connection.close();
  }

  private sendSubscription(): void {
    this.connection.setStanding('subscribe_quote', { aid: 'subscribe_quote', ins_list: [...this.symbols].join(',') });
  }

  private handleData(patches: JsonObject[]): void {
    if (this.tickListeners.size > 0) {
      const changed = new Set<string>();
      for (const patch of patches) {
        const quotes = patch.quotes;
        if (!isJsonObject(quotes)) continue;
        for (const [symbol, value] of Object.entries(quotes)) if (isJsonObject(value)) changed.add(symbol);
      }
      const ticks: Quote[] = [];
      for (const symbol of changed) {
        const quote = this.getQuote(symbol);
        if (quote) ticks.push(quote);
      }
      if (ticks.length > 0) {
        for (const listener of [...this.tickListeners]) {
          try {
            listener(ticks);
          } catch (err) {
            this.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'onTick listener threw');
          }
        }
      }
    }
    if (this.pending.size > 0) this.settleQueries();
  }

  private settleQueries(): void {
    const symbols = getObject(this.connection.data, 'symbols');
    if (!symbols) return;
    for (const [queryId, query] of [...this.pending]) {
      const answer = getObject(symbols, queryId);
      if (!answer) continue;
      const error = answer.error ?? answer.errors;
      if (error === undefined && answer.result === undefined) continue;
      this.pending.delete(queryId);
      delete symbols[queryId]; // answers can be large: do not keep them in the tree
      clearTimeout(query.timer);
      if (error !== undefined && error !== null) query.reject(new Error(`合约查询失败：${JSON.stringify(error)}`));
      else query.resolve(parseInstruments(answer.result));
    }
  }
}

/**
 * The market-data source of the environment: MARKET_SOURCE=diff with MD_URL (ws:// or wss://);
 * null for any other MARKET_SOURCE. Not started.
 */
export function createDiffMarketDataFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  logger?: Logger,
): DiffMarketData | null {
  if (env.MARKET_SOURCE !== 'diff') return null;
  const url = env.MD_URL;
  if (!url || !/^wss?:\/\//.test(url)) throw new Error('MARKET_SOURCE=diff needs MD_URL (ws:// or wss://)');
  return new DiffMarketData({ url, logger });
}
