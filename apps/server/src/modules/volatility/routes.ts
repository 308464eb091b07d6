import { marketRoutes as api } from '@pfp/contract';
import { findInstrument } from '../../market/catalogue';
import { invalid } from '../../platform/errors';
import { every } from '../../platform/every';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { inlineEngine } from './curveEngine';
import { VolatilityCurves } from './curves';
import { CurveWorkers } from './curveWorkers';
import { smileBookOf } from './smileBook';
import { smileView } from './smileView';

/** How often the smiles of the products asked about are refitted (the chains whose points moved). */
const REFIT_MS = 5_000;

/**
 * The volatility page's curves (ARCHITECTURE §5): a WebSocket source, `volatility_curves`; and the fitted smiles
 * (docs/smile.md): a public call, and the timer that refits them.
 */
export const volatility: Capability = {
  open(app, ctx) {
    serve(
      app,
      api.volatilitySmile,
      ({ query }) => {
        if (findInstrument(query.symbol)?.kind !== 'future' || !ctx.optionMarket)
          throw invalid(`参数 symbol 不是有效的期货合约：${query.symbol}`, 'symbol');
        return smileView(smileBookOf(ctx.optionMarket, ctx.quote), query.symbol);
      },
      { tags: ['market'] },
    );
  },
  sources(ctx) {
    const { config } = ctx;
    const logger = ctx.logger.child({ module: 'volatility' });
    // Computed on worker threads (CURVE_WORKERS=0: on this thread), the curves and the smiles' fits alike.
    const engine = config.curveWorkers === 0 ? inlineEngine() : new CurveWorkers(config.curveWorkers, logger);
    const book = smileBookOf(ctx.optionMarket ?? ctx.market, ctx.quote);
    book.fitter = engine;
    book.logger = logger;
    const curves = new VolatilityCurves(ctx.market, engine, {
      isFuture: (s) => findInstrument(s)?.kind === 'future',
      public: config.volatilityPublic,
      maxItems: config.ws.maxCurves,
    });
    return { sources: [['volatility_curves', curves.source]], stop: () => curves.close() };
  },
  jobs(ctx) {
    const book = smileBookOf(ctx.optionMarket ?? ctx.market, ctx.quote);
    book.timed = true;
    const timer = every('smile refit', REFIT_MS, async () => book.refresh(), ctx.logger);
    return [{ stop: () => timer.stop() }];
  },
};
