import type { Requests } from './requests';
import type { WsLogger } from './types';

/**
 * The peek_message loop of one connection: one peek in flight at most, the next one `delayMs`
 * after each reply, or on a fixed interval when `intervalMs` is set (the volatility page's 2 s).
 */
export class PeekLoop {
  private inFlight = false;
  private timeout: ReturnType<typeof setTimeout> | undefined;
  private interval: ReturnType<typeof setInterval> | undefined;
  /** Bumped by start and stop: a reply from an earlier run is ignored. */
  private run = 0;

  constructor(
    private readonly requests: Requests,
    private readonly isOpen: () => boolean,
    private readonly deliver: (data: unknown) => void,
    private readonly logger: WsLogger,
    private readonly delayMs: number,
    private readonly intervalMs: number | undefined,
  ) {}

  start(): void {
    this.stop();
    this.peek();
    if (this.intervalMs !== undefined) {
      this.interval = setInterval(() => this.peek(), this.intervalMs);
    }
  }

  stop(): void {
    this.run++;
    if (this.timeout !== undefined) clearTimeout(this.timeout);
    if (this.interval !== undefined) clearInterval(this.interval);
    this.timeout = undefined;
    this.interval = undefined;
    this.inFlight = false;
  }

  private peek(): void {
    if (this.inFlight || !this.isOpen()) return;
    this.inFlight = true;
    const run = this.run;
    const after = () => {
      if (run !== this.run) return;
      this.inFlight = false;
      if (this.intervalMs === undefined) {
        this.timeout = setTimeout(() => {
          this.timeout = undefined;
          this.peek();
        }, this.delayMs);
      }
    };
    this.requests.send(
      'peek_message',
      {},
      (data) => {
        if (run !== this.run) return;
        this.deliver(data);
        after();
      },
      (err) => {
        if (err.reason !== 'closed') this.logger.warn(`[ws-core] peek_message 失败: ${err.message}`);
        after();
      },
      0, // peek 可能被服务端长轮询挂起，不设超时
    );
  }
}
