import WebSocket, { type RawData } from 'ws';
import { isJsonObject, type JsonObject, type JsonValue, mergePatch } from './mergePatch';
import { silentLogger, type Logger } from '../platform/logger';

/**
 * One DIFF WebSocket connection (shinnytech/diff general.rst):
 * - every packet is a JSON object with `aid`;
 * - the server sends `{aid: 'rtn_data', data: [patch…]}` only after the client sent `{aid: 'peek_message'}`,
 *   and one rtn_data per peek, so the client sends a peek after connecting and after each rtn_data
 *   (a slow client thereby slows the feed down instead of queueing it);
 * - any other aid from the client is an instruction (subscribe_quote, req_login, insert_order, …).
 *
 * This class keeps the client's mirror of the server's tree (`data`), applies the patches of each rtn_data
 * and then tells its listeners, with the patches, so they can see what changed. It reconnects with capped,
 * jittered exponential back-off, and on every (re)connect re-sends the "standing" instructions
 * (`setStanding`: the quote subscription, the login) before the first peek. One-off instructions are not
 * queued while disconnected: `send` says whether the packet went out.
 *
 * The tree survives reconnects (the server sends its full section again after a reconnect, which merges
 * over the old one); keys listed in `ephemeralKeys` (default `notify`) are dropped from the tree after the
 * listeners saw each rtn_data, so notifications do not accumulate.
 */

/** A client → server packet. */
export interface DiffMessage {
  aid: string;
  [key: string]: JsonValue;
}

export interface BackoffOptions {
  /** Delay before the first retry. */
  initialMs: number;
  /** Cap of the delay. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
  /** 0…1: the delay is drawn uniformly from [base·(1 − jitter), base]. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.5 };

/** Delay before reconnect attempt `attempt` (0 = first retry): min(maxMs, initialMs·factor^attempt), jittered down. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.min(attempt, 64));
  const base = Math.min(options.maxMs, options.initialMs * Math.pow(Math.max(1, options.factor), exponent));
  const jitter = Math.min(1, Math.max(0, options.jitter));
  const r = Math.min(1, Math.max(0, random()));
  return Math.max(0, Math.round(base * (1 - jitter * r)));
}

export interface DiffConnectionOptions {
  url: string;
  /** Name in log lines, e.g. 'md' or 'trade'. */
  name?: string;
  logger?: Logger;
  /** HTTP headers of the WebSocket handshake (e.g. Authorization for Shinny's market-data service). */
  headers?: Record<string, string>;
  backoff?: Partial<BackoffOptions>;
  /** Handshake timeout (default 10 s). */
  handshakeTimeoutMs?: number;
  /** WebSocket ping interval; a connection missing a pong for one interval is dropped (default 20 s, 0 = off). */
  pingIntervalMs?: number;
  /** Largest accepted message (default 256 MiB: a whole-market ins_query answer is tens of MB). */
  maxPayload?: number;
  /** Top-level keys removed from the tree after each rtn_data was handed to the listeners (default ['notify']). */
  ephemeralKeys?: string[];
  random?: () => number;
}

export type DiffConnectionState = 'idle' | 'connecting' | 'open' | 'closed';

export interface DiffCloseInfo {
  code: number;
  reason: string;
  /** Delay of the next attempt, null once the connection was closed by `close()`. */
  reconnectInMs: number | null;
}

type Listener<T> = (value: T) => void;

function rawToString(raw: RawData): string {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw).toString('utf8');
}

export class DiffConnection {
  /** The client's mirror of the server's section. Read it; do not write to it. */
  readonly data: JsonObject = {};
  private readonly options: DiffConnectionOptions;
  private readonly backoff: BackoffOptions;
  private readonly logger: Logger;
  private readonly name: string;
  private readonly random: () => number;
  private ws: WebSocket | null = null;
  private currentState: DiffConnectionState = 'idle';
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private awaitingPong = false;
  private readonly standing = new Map<string, DiffMessage>();
  private readonly dataListeners = new Set<Listener<JsonObject[]>>();
  private readonly openListeners = new Set<Listener<void>>();
  private readonly closeListeners = new Set<Listener<DiffCloseInfo>>();
  private closing: Promise<void> | null = null;
  private connects = 0;

  constructor(options: DiffConnectionOptions) {
    this.options = options;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.logger = options.logger ?? silentLogger;
    this.name = options.name ?? 'diff';
    this.random = options.random ?? Math.random;
  }

  get state(): DiffConnectionState {
    return this.currentState;
  }

  /** Number of times a socket opened (1 after the first connect, 2 after the first reconnect, …). */
  get connectCount(): number {
    return this.connects;
  }

  isOpen(): boolean {
    return this.currentState === 'open' && this.ws?.readyState === WebSocket.OPEN;
  }

  /** Starts connecting (idempotent). */
  start(): void {
    if (this.currentState !== 'idle') return;
    this.openSocket();
  }

  /** Sends one instruction if the socket is open; returns whether it went out (nothing is queued). */
  send(message: DiffMessage): boolean {
    const ws = this.ws;
    if (!ws || this.currentState !== 'open' || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message), (err) => {
      if (err) this.logger.warn({ conn: this.name, aid: message.aid, err: err.message }, 'DIFF send failed');
    });
    return true;
  }

  /**
   * A standing instruction, sent now when open and again after every reconnect, before the first peek
   * (in the order the keys were first set). `undefined` removes it.
   */
  setStanding(key: string, message: DiffMessage | undefined): void {
    if (message === undefined) {
      this.standing.delete(key);
      return;
    }
    this.standing.set(key, message);
    this.send(message);
  }

  /** After each rtn_data: the patches, already applied to `data`. */
  onData(listener: Listener<JsonObject[]>): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  /** After each (re)connect, once the standing instructions went out and before the first peek. */
  onOpen(listener: Listener<void>): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** After the socket closed or failed to connect. */
  onClose(listener: Listener<DiffCloseInfo>): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Stops reconnecting and closes the socket; resolves once it is closed (idempotent). */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const previous = this.currentState;
    this.currentState = 'closed';
    this.clearTimers();
    const ws = this.ws;
    this.closing = new Promise<void>((resolve) => {
      if (!ws || ws.readyState === WebSocket.CLOSED) {
        resolve();
        return;
      }
      const force = setTimeout(() => ws.terminate(), 2_000);
      force.unref();
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'client closing');
    });
    if (previous !== 'idle') this.logger.info({ conn: this.name }, 'DIFF connection closed');
    return this.closing;
  }

  private openSocket(): void {
    if (this.currentState === 'closed') return;
    this.currentState = 'connecting';
    const ws = new WebSocket(this.options.url, {
      headers: this.options.headers,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 10_000,
      maxPayload: this.options.maxPayload ?? 256 * 1024 * 1024,
    });
    this.ws = ws;
    ws.on('open', () => this.handleOpen(ws));
    ws.on('message', (raw) => this.handleMessage(ws, raw));
    ws.on('pong', () => {
      this.awaitingPong = false;
    });
    ws.on('error', (err) => {
      this.logger.debug({ conn: this.name, err: err.message }, 'DIFF socket error');
    });
    ws.on('close', (code, reason) => this.handleClose(ws, code, reason.toString('utf8')));
  }

  private handleOpen(ws: WebSocket): void {
    if (ws !== this.ws || this.currentState === 'closed') return;
    this.currentState = 'open';
    this.connects += 1;
    this.logger.info({ conn: this.name, url: this.options.url, connects: this.connects }, 'DIFF connected');
    for (const message of this.standing.values()) this.send(message);
    for (const listener of [...this.openListeners]) this.safely(() => listener());
    this.send({ aid: 'peek_message' });
    this.startPing(ws);
  }

  private handleMessage(ws: WebSocket, raw: RawData): void {
    if (ws !== this.ws || this.currentState !== 'open') return;
    let message: unknown;
    try {
      message = JSON.parse(rawToString(raw));
    } catch {
      this.logger.warn({ conn: this.name }, 'DIFF: message is not JSON');
      return;
    }
    if (!isJsonObject(message) || message.aid !== 'rtn_data') {
      if (isJsonObject(message)) this.logger.debug({ conn: this.name, aid: message.aid }, 'DIFF: ignored packet');
      return;
    }
    const patches = Array.isArray(message.data) ? message.data.filter(isJsonObject) : [];
    for (const patch of patches) mergePatch(this.data, patch);
    // A working exchange of data: the next failure starts the back-off from the beginning again.
    this.attempt = 0;
    for (const listener of [...this.dataListeners]) this.safely(() => listener(patches));
    for (const key of this.options.ephemeralKeys ?? ['notify']) delete this.data[key];
    this.send({ aid: 'peek_message' });
  }

  private handleClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    this.ws = null;
    this.clearTimers();
    if (this.currentState === 'closed') {
      for (const listener of [...this.closeListeners])
        this.safely(() => listener({ code, reason, reconnectInMs: null }));
      return;
    }
    const wasOpen = this.currentState === 'open';
    const delay = backoffDelay(this.attempt, this.backoff, this.random);
    this.attempt += 1;
    this.currentState = 'connecting';
    const log = { conn: this.name, code, reason, attempt: this.attempt, reconnectInMs: delay };
    if (wasOpen || this.attempt === 1 || this.attempt % 10 === 0)
      this.logger.warn(log, 'DIFF disconnected, reconnecting');
    else this.logger.debug(log, 'DIFF connect failed, retrying');
    for (const listener of [...this.closeListeners])
      this.safely(() => listener({ code, reason, reconnectInMs: delay }));
    if (this.currentState !== 'connecting') return; // a listener closed us
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.openSocket();
    }, delay);
  }

  private startPing(ws: WebSocket): void {
    const interval = this.options.pingIntervalMs ?? 20_000;
    if (interval <= 0) return;
    this.awaitingPong = false;
    this.pingTimer = setInterval(() => {
      if (ws !== this.ws || ws.readyState !== WebSocket.OPEN) return;
      if (this.awaitingPong) {
        this.logger.warn({ conn: this.name }, 'DIFF: no pong, dropping the connection');
        ws.terminate();
        return;
      }
      this.awaitingPong = true;
      ws.ping();
    }, interval);
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error(
        { conn: this.name, err: err instanceof Error ? err.message : String(err) },
        'DIFF listener threw',
      );
    }
  }
}
