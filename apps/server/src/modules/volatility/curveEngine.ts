/**
 * Where the curves of a chain are computed, and the smiles fitted (smileFit.ts): on worker threads
 * (curveWorkers.ts, the server's default) or on the calling thread (`inlineEngine`, CURVE_WORKERS=0).
 * Either way one computation per chain per tick, whatever the number of subscribers.
 */
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';
import { ChainCurves, type CurvePoint } from './chainCurves';
import { inlineFitter, type SmileFitter } from './smileFit';

export interface ChainSetup {
  future: string;
  options: OptionSpec[];
  rate: number;
  /** The chain's quotes now (the future's and its options'), and the time. */
  quotes: Quote[];
  at: number;
}

/** Curves that changed, [key, data], computed from the quotes of the tick at `at` (epoch ms). */
export type CurvesListener = (changed: [string, CurvePoint[]][], at: number) => void;

export interface ChainHandle {
  /** The quotes of the chain that changed in the tick at `at`. */
  update(quotes: readonly Quote[], at: number): void;
  close(): void;
}

export interface CurveEngine extends SmileFitter {
  /**
   * Starts computing a chain. `onCurves` gets every curve first, then the ones that change.
   * `snapshot` re-reads the chain's quotes (to start over, e.g. after a worker died).
   */
  open(setup: ChainSetup, snapshot: () => Quote[], onCurves: CurvesListener): ChainHandle;
  /** Computations finished so far (for tests and metrics). */
  readonly computations: number;
  close(): Promise<void>;
}

/** Computes on the calling thread, synchronously. */
export function inlineEngine(): CurveEngine {
  const engine = {
    computations: 0,
    open(setup: ChainSetup, _snapshot: () => Quote[], onCurves: CurvesListener): ChainHandle {
      const curves = new ChainCurves(setup.future, setup.options, setup.rate);
      curves.apply(setup.quotes, setup.at);
      curves.update(setup.at);
      engine.computations++;
      onCurves(curves.all(), setup.at);
      let open = true;
      return {
        update(quotes, at) {
          if (!open) return;
          curves.apply(quotes, at);
          const changed = curves.update(at);
          engine.computations++;
          onCurves(changed, at);
        },
        close() {
          open = false;
        },
      };
    },
    fitSmiles: inlineFitter.fitSmiles,
    close: async () => {},
  };
  return engine;
}
