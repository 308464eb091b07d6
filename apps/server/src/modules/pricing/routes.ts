import { traderRoutes as traderApi } from '@pfp/contract';
import { invalid } from '../../platform/errors';
import { serve } from '../../platform/http/route';
import { shanghaiToday } from '../contracts/fixingTerms';
import type { Capability } from '../context';
import { chainVols, instrumentFacts } from './facts';
import { atmVol, LIVE_RATE } from './liveMarket';
import { priceStructure, type Market } from './price';
import { priceOnSurface } from './surfaceMarket';
import { smileBookOf } from '../volatility/smileBook';

/** The structure's last date: its expiry, the average's or the accumulation's end. */
const lastDate = (s: { expiry?: string; average_end?: string; end?: string }) => s.expiry ?? s.average_end ?? s.end;

/** 含权报价 (issue 44, docs/pricing.md): prices a structure on the live market or a what-if one; changes nothing. */
export const pricing: Capability = {
  trader(app, ctx, trader) {
    serve(
      app,
      traderApi.priceStructure,
      async ({ req, body }) => {
        await trader.tenantOf(req);
        const { structure, market } = body;
        const facts = await instrumentFacts(ctx.db, structure.instrument_id);
        if (market) return { ...priceStructure(structure, market), vol_source: 'market' as const, ...facts };
        const forward = ctx.quote?.(structure.instrument_id)?.last_price;
        if (!(typeof forward === 'number' && forward > 0))
          throw invalid('暂无该合约的行情，请填写行情参数（market）', 'structure.instrument_id');
        const today = shanghaiToday();
        const smile =
          ctx.optionMarket && (await smileBookOf(ctx.optionMarket, ctx.quote).product(structure.instrument_id));
        const onSurface =
          smile && priceOnSurface(structure, smile, { forward, rate: LIVE_RATE, valuation_date: today });
        // The chain's market points go beside the vol read (the calculator marks it among them).
        const chain = () => chainVols(ctx, structure.instrument_id, forward, today, lastDate(structure));
        if (onSurface) return { ...onSurface, ...facts, chain_vols: chain() };
        // No chain of the product has enough quotes to fit a smile: the nearest chain's at-the-money vol.
        const atm = atmVol(ctx, structure.instrument_id, forward, today);
        if (!atm) throw invalid('该合约暂无期权报价，无法取得波动率，请填写行情参数（market）', 'market');
        const live: Market = { forward, vol: atm.vol, rate: LIVE_RATE, valuation_date: today };
        return {
          ...priceStructure(structure, live),
          vol_source: 'atm' as const,
          note: `波动率取 ${atm.expiry} 到期、行权价 ${atm.strike} 的平值隐含波动率（期权报价不足，无法拟合微笑曲面）`,
          ...facts,
          chain_vols: chain(),
        };
      },
      { tags: ['trader'] },
    );
  },
};
