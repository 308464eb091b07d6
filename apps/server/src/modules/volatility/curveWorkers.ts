/**
 * The curve computations on worker threads (node:worker_threads), off the event loop that serves the
 * WebSockets. Each chain lives on one worker (the one with the fewest chains when it opened). A chain
 * has at most one computation in flight: the ticks that arrive meanwhile are merged (latest quote per
 * symbol) and sent as one when the worker answers, so a slow computation never queues up work.
 * A worker that dies is replaced and its chains start over from the market's current quotes.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { consoleLogger, type Logger } from '../../platform/logger';
import type { Quote } from '../../platform/quote';
import type { ChainHandle, ChainSetup, CurveEngine, CurvesListener } from './curveEngine';
import type { FromWorker, ToWorker } from './curveWorker';

/** Leave a core to the main thread: on 2 cores, one worker. */
export const defaultWorkerCount = () => Math.max(1, Math.min(4, availableParallelism() - 1));

interface Slot {
  worker: Worker;
  chains: Set<PoolChain>;
}

/** Respawn delays after workers that died without answering: doubling from 100 ms up to 30 s. */
const FIRST_RESPAWN_MS = 100;
const MAX_RESPAWN_MS = 30_000;

interface PoolChain {
  id: number;
  slot: Slot;
  setup: Omit<ChainSetup, 'quotes' | 'at'>;
  snapshot: () => Quote[];
  onCurves: CurvesListener;
  busy: boolean;
  /** Quotes of ticks that arrived while busy, latest per symbol, and the latest tick's time. */
  pending: Map<string, Quote> | undefined;
  pendingAt: number;
  /** The latest tick time sent. */
  lastAt: number;
}

/**
 * The worker's script: the built file next to the server's bundle, or the TypeScript source (dev and
 * tests), loaded through tsx's ESM API since a worker does not inherit the parent's loader.
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./modules/volatility/curveWorker.js', here));
  }
  const tsxDir = path.dirname(createRequire(here).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./curveWorker.ts', here).href;
  const boot = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { eval: true });
}

export class CurveWorkers implements CurveEngine {
  private readonly slots: Slot[] = [];
  private readonly chains = new Map<number, PoolChain>();
  private nextId = 0;
  private closed = false;
  /** Delay before replacing the next dead worker; reset by any answer, so a crash loop backs off. */
  private respawnMs = 0;
  computations = 0;

  constructor(
    private readonly size = defaultWorkerCount(),
    private readonly logger: Logger = consoleLogger,
  ) {}

  open(setup: ChainSetup, snapshot: () => Quote[], onCurves: CurvesListener): ChainHandle {
    const slot = this.pickSlot();
    const { quotes, at, ...rest } = setup;
    const chain: PoolChain = {
      id: ++this.nextId,
      slot,
      setup: rest,
      snapshot,
      onCurves,
      busy: true,
      pending: undefined,
      pendingAt: 0,
      lastAt: at,
    };
    this.chains.set(chain.id, chain);
    slot.chains.add(chain);
    this.post(slot, { type: 'open', id: chain.id, ...rest, quotes, at });
    return {
      update: (q, t) => this.update(chain, q, t),
      close: () => {
        if (!this.chains.delete(chain.id)) return;
        chain.slot.chains.delete(chain);
        this.post(chain.slot, { type: 'close', id: chain.id });
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.chains.clear();
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private update(chain: PoolChain, quotes: readonly Quote[], at: number) {
    if (!this.chains.has(chain.id)) return;
    if (chain.busy) {
      chain.pending ??= new Map();
      for (const q of quotes) chain.pending.set(q.symbol, q);
      chain.pendingAt = at;
      return;
    }
    chain.busy = true;
    chain.lastAt = at;
    this.post(chain.slot, { type: 'update', id: chain.id, quotes: [...quotes], at });
  }

  private onReply(reply: FromWorker) {
    this.respawnMs = 0;
    const chain = this.chains.get(reply.id);
    if (!chain) return;
    this.computations++;
    chain.busy = false;
    try {
      chain.onCurves(reply.changed, reply.at);
    } catch (e) {
      this.logger.error({ err: e }, 'curve worker failed');
    }
    if (chain.pending && this.chains.has(chain.id)) {
      const quotes = [...chain.pending.values()];
      chain.pending = undefined;
      this.update(chain, quotes, chain.pendingAt);
    }
  }

  private pickSlot(): Slot {
    if (this.slots.length < this.size) return this.spawn();
    return this.slots.reduce((a, b) => (b.chains.size < a.chains.size ? b : a));
  }

  private spawn(): Slot {
    const slot: Slot = { worker: spawnWorker(), chains: new Set() };
    slot.worker.unref();
    slot.worker.on('message', (reply: FromWorker) => this.onReply(reply));
    slot.worker.on('error', (err) => this.logger.error({ err }, 'curve worker failed'));
    slot.worker.on('exit', () => this.replace(slot));
    this.slots.push(slot);
    return slot;
  }

  /** A worker went away (crashed): its chains start over on a new one, from the current quotes. */
  private replace(dead: Slot) {
    const i = this.slots.indexOf(dead);
    if (this.closed || i < 0) return;
    this.slots.splice(i, 1);
    const restart = () => {
      if (this.closed) return;
      const next = this.spawn();
      for (const chain of dead.chains) {
        if (!this.chains.has(chain.id)) continue;
        chain.slot = next;
        chain.busy = true;
        chain.pending = undefined;
        next.chains.add(chain);
        this.post(next, { type: 'open', id: chain.id, ...chain.setup, quotes: chain.snapshot(), at: chain.lastAt });
      }
    };
    // At once after a crash; backing off while workers keep dying before they answer (a broken build).
    if (this.respawnMs === 0) {
      this.respawnMs = FIRST_RESPAWN_MS;
      restart();
    } else {
      setTimeout(restart, this.respawnMs).unref();
      this.respawnMs = Math.min(MAX_RESPAWN_MS, this.respawnMs * 2);
    }
  }

  private post(slot: Slot, msg: ToWorker) {
    slot.worker.postMessage(msg);
  }
}
