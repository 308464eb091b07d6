/**
 * The curve computations on worker threads (node:worker_threads), off the event loop that serves the
 * WebSockets. Each chain lives on one worker (the one with the fewest chains when it opened). A chain
 * has at most one computation in flight: the ticks that arrive meanwhile are merged (latest quote per
 * symbol) and sent as one when the worker answers, so a slow computation never queues up work.
 * A worker that dies is replaced and its chains start over from the market's current quotes.
 *
 * The same workers fit the smiles (docs/smile.md): a product's chains go to the least loaded worker as one
 * 'smile' message and its answer resolves the promise. A fit in flight on a worker that dies is sent once more to
 * its replacement (as a chain starts over); one the worker does not answer within `fitTimeoutMs` fails, and the
 * worker, stuck, is replaced. A failed fit rejects: the smile book keeps the last good smile.
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
import type { SmileJob, SmileResult } from './smileFit';

/** Leave a core to the main thread: on 2 cores, one worker. */
export const defaultWorkerCount = () => Math.max(1, Math.min(4, availableParallelism() - 1));

interface Slot {
  worker: Worker;
  chains: Set<PoolChain>;
  fits: Set<PendingFit>;
}

/** A product's smile fit in flight. */
interface PendingFit {
  id: number;
  slot: Slot;
  jobs: SmileJob[];
  resolve: (results: SmileResult[]) => void;
  reject: (err: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
  /** Already sent again after its worker died: a second death fails it (it may be what kills them). */
  resent: boolean;
}

/**
 * A worker silent this long on a smile fit is taken as stuck: a product's fit takes ~0.1 s (1 s on a loaded core),
 * and the request deadline (15 s) has answered its caller by then.
 */
const FIT_TIMEOUT_MS = 20_000;

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
  private readonly fits = new Map<number, PendingFit>();
  private nextId = 0;
  private closed = false;
  /** Delay before replacing the next dead worker; reset by any answer, so a crash loop backs off. */
  private respawnMs = 0;
  computations = 0;
  /** Smile fits answered by the workers (for tests and metrics). */
  smileFits = 0;

  constructor(
    private readonly size = defaultWorkerCount(),
    private readonly logger: Logger = consoleLogger,
    /** How long a smile fit may go unanswered before its worker is replaced (ms). */
    public fitTimeoutMs = FIT_TIMEOUT_MS,
  ) {}

  /** The worker threads now (for tests and metrics). */
  get threads(): readonly Worker[] {
    return this.slots.map((s) => s.worker);
  }

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

  /** Fits a product's chains on a worker (smileFit.ts `fitChains`); rejects when the fit failed. */
  fitSmiles(jobs: SmileJob[]): Promise<SmileResult[]> {
    if (this.closed) return Promise.reject(new Error('curve workers closed'));
    return new Promise((resolve, reject) => {
      const slot = this.pickSlot();
      const fit: PendingFit = { id: ++this.nextId, slot, jobs, resolve, reject, resent: false };
      this.fits.set(fit.id, fit);
      slot.fits.add(fit);
      this.sendFit(fit);
    });
  }

  private sendFit(fit: PendingFit) {
    clearTimeout(fit.timer);
    fit.timer = setTimeout(() => {
      const { worker } = fit.slot;
      this.endFit(fit, new Error(`smile fit unanswered for ${this.fitTimeoutMs} ms`));
      this.logger.error({ timeout_ms: this.fitTimeoutMs }, 'curve worker stuck on a smile fit: replaced');
      void worker.terminate();
    }, this.fitTimeoutMs);
    fit.timer.unref();
    this.post(fit.slot, { type: 'smile', id: fit.id, jobs: fit.jobs });
  }

  private endFit(fit: PendingFit, err: Error | undefined, results?: SmileResult[]) {
    if (!this.fits.delete(fit.id)) return;
    clearTimeout(fit.timer);
    fit.slot.fits.delete(fit);
    if (err) fit.reject(err);
    else fit.resolve(results!);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.chains.clear();
    for (const fit of [...this.fits.values()]) this.endFit(fit, new Error('curve workers closed'));
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
    if (reply.type === 'smile') {
      const fit = this.fits.get(reply.id);
      if (!fit) return;
      if ('error' in reply) this.endFit(fit, new Error(`smile fit failed: ${reply.error}`));
      else {
        this.smileFits++;
        this.endFit(fit, undefined, reply.results);
      }
      return;
    }
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
    const load = (s: Slot) => s.chains.size + s.fits.size;
    return this.slots.reduce((a, b) => (load(b) < load(a) ? b : a));
  }

  private spawn(): Slot {
    const slot: Slot = { worker: spawnWorker(), chains: new Set(), fits: new Set() };
    slot.worker.unref();
    slot.worker.on('message', (reply: FromWorker) => this.onReply(reply));
    slot.worker.on('error', (err) => this.logger.error({ err }, 'curve worker failed'));
    slot.worker.on('exit', () => this.replace(slot));
    this.slots.push(slot);
    return slot;
  }

  /**
   * A worker went away (crashed): its chains start over on a new one, from the current quotes; its smile fits are
   * sent there once more, or fail if they were already.
   */
  private replace(dead: Slot) {
    const i = this.slots.indexOf(dead);
    if (this.closed || i < 0) return;
    this.slots.splice(i, 1);
    for (const fit of [...dead.fits]) if (fit.resent) this.endFit(fit, new Error('curve worker died twice on a fit'));
    const restart = () => {
      if (this.closed) return;
      // A smile fit asked for meanwhile may have started a worker already.
      const next = this.pickSlot();
      for (const chain of dead.chains) {
        if (!this.chains.has(chain.id)) continue;
        chain.slot = next;
        chain.busy = true;
        chain.pending = undefined;
        next.chains.add(chain);
        this.post(next, { type: 'open', id: chain.id, ...chain.setup, quotes: chain.snapshot(), at: chain.lastAt });
      }
      for (const fit of dead.fits) {
        if (!this.fits.has(fit.id)) continue;
        fit.slot = next;
        fit.resent = true;
        next.fits.add(fit);
        this.sendFit(fit);
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
