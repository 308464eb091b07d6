import type { Capability } from '../context';
import { rememberedTenantIds } from '../tenants/tenantIds';
import { LiveHub } from './hub';

/** The live desks (docs/live.md): the customers' and traders' data and the quotes pushed as they change. */
export const live: Capability = {
  sources(ctx) {
    const hub = new LiveHub({
      db: ctx.db,
      quote: (symbol) => ctx.market.getQuote(symbol),
      onTick: (listener) => ctx.market.onTick(listener),
      tenantOf: rememberedTenantIds(ctx.db),
      logger: ctx.logger.child({ module: 'live' }),
    });
    return { sources: hub.sources(), stop: () => hub.close() };
  },
};
