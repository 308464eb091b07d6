import { findInstrument } from '../../market/catalogue';
import type { Capability } from '../context';
import { inlineEngine } from './curveEngine';
import { VolatilityCurves } from './curves';
import { CurveWorkers } from './curveWorkers';

/** The volatility page's curves (ARCHITECTURE §5): a WebSocket source, `volatility_curves`, no calls. */
export const volatility: Capability = {
  sources(ctx) {
    const { config } = ctx;
    // Computed on worker threads (CURVE_WORKERS=0: on this thread).
    const engine =
      config.curveWorkers === 0
        ? inlineEngine()
        : new CurveWorkers(config.curveWorkers, ctx.logger.child({ module: 'volatility' }));
    const curves = new VolatilityCurves(ctx.market, engine, {
      isFuture: (s) => findInstrument(s)?.kind === 'future',
      public: config.volatilityPublic,
      maxItems: config.ws.maxCurves,
    });
    return { sources: [['volatility_curves', curves.source]], stop: () => curves.close() };
  },
};
