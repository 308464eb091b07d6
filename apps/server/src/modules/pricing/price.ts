/**
 * 含权报价: the terms of a structure checked against the market they are priced on, then the engine of
 * @pfp/quant (docs/pricing.md). Every refusal names its field in Chinese.
 */
import type { priceStructureInput, PriceStructureResult } from '@pfp/contract';
import {
  accumulator,
  asianOption,
  barrierOption,
  daysBetween,
  isDate,
  tradingDays,
  vanilla,
  yearFraction,
  zeroCostStrike,
  type Valuation,
} from '@pfp/quant';
import type { z } from 'zod';
import { invalid } from '../../platform/errors';

type Terms = z.output<typeof priceStructureInput>['structure'];

export interface Market {
  forward: number;
  vol: number;
  rate: number;
  valuation_date: string;
}

/** The longest structure priced: two years of trading days. */
const MAX_DAYS = 520;

function need<T>(value: T | undefined, message: string, field: string): T {
  if (value === undefined) throw invalid(message, `structure.${field}`);
  return value;
}

function dateField(value: string | undefined, label: string, field: string): string {
  const d = need(value, `请填写${label}`, field);
  if (!isDate(d)) throw invalid(`${label}不是有效日期`, `structure.${field}`);
  return d;
}

/** Trading days of [from, to] after the valuation date, as times in years; refused when none is left or too many. */
function observations(from: string, to: string, market: Market, label: string, field: string) {
  if (daysBetween(market.valuation_date, to) <= 0) throw invalid(`${label}已过估值日，无法定价`, `structure.${field}`);
  const days = tradingDays(from, to).filter((d) => daysBetween(market.valuation_date, d) > 0);
  if (days.length === 0) throw invalid(`${label}内没有剩余交易日`, `structure.${field}`);
  if (days.length > MAX_DAYS) throw invalid(`期限过长：最多 ${MAX_DAYS} 个交易日`, `structure.${field}`);
  return days.map((d) => yearFraction(market.valuation_date, d));
}

const isCallOf = (t: Terms) => need(t.option_type, '请选择期权类型（call 或 put）', 'option_type') === 'call';

export function priceStructure(terms: Terms, market: Market): Omit<PriceStructureResult, 'vol_source' | 'note'> {
  if (!isDate(market.valuation_date)) throw invalid('估值日不是有效日期', 'market.valuation_date');
  const { forward: F, vol: sigma, rate: r } = market;
  const common = { forward: F, vol: sigma, rate: r, valuation_date: market.valuation_date, standard_error: null };
  const answer = (v: Valuation, engine: string, extra: { strike?: number; observations?: number } = {}) => ({
    price: v.price,
    delta: v.delta,
    gamma: v.gamma,
    vega: v.vega,
    theta: v.theta,
    engine,
    ...common,
    ...extra,
  });

  switch (terms.kind) {
    case 'vanilla': {
      const isCall = isCallOf(terms);
      const K = need(terms.strike, '请填写行权价', 'strike');
      const expiry = dateField(terms.expiry, '到期日', 'expiry');
      if (daysBetween(market.valuation_date, expiry) <= 0) throw invalid('到期日须晚于估值日', 'structure.expiry');
      return answer(vanilla(F, K, yearFraction(market.valuation_date, expiry), r, isCall, sigma), 'black76');
    }
    case 'asian': {
      const isCall = isCallOf(terms);
      const K = need(terms.strike, '请填写行权价', 'strike');
      const start = dateField(terms.average_start, '均价起始日', 'average_start');
      const end = dateField(terms.average_end, '均价结束日', 'average_end');
      if (daysBetween(start, end) < 0) throw invalid('均价结束日不能早于起始日', 'structure.average_end');
      if (daysBetween(market.valuation_date, end) < 0) throw invalid('均价窗口已结束', 'structure.average_end');
      const window = tradingDays(start, end);
      if (window.length === 0) throw invalid('均价窗口内没有交易日', 'structure.average_start');
      if (window.length > MAX_DAYS) throw invalid(`期限过长：最多 ${MAX_DAYS} 个交易日`, 'structure.average_end');
      const fixings = terms.fixings ?? [];
      const past = window.filter((d) => daysBetween(d, market.valuation_date) > 0).length;
      const today = window.includes(market.valuation_date) ? 1 : 0;
      if (fixings.length < past) throw invalid(`缺少已定价格：估值日前已有 ${past} 个交易日`, 'structure.fixings');
      if (fixings.length > past + today)
        throw invalid(`已定价格多于已过的交易日（${past + today} 个）`, 'structure.fixings');
      // Days not fixed yet, today's included when its fixing is not given (it fixes at today's price: time 0).
      const times = window.slice(fixings.length).map((d) => yearFraction(market.valuation_date, d));
      return answer(
        asianOption({
          F,
          K,
          isCall,
          sigma,
          r,
          times,
          fixings,
          payTime: yearFraction(market.valuation_date, window[window.length - 1]!),
        }),
        'asian: geometric conditioning, lognormal conditional (Curran/Lord)',
      );
    }
    case 'barrier': {
      const isCall = isCallOf(terms);
      const K = need(terms.strike, '请填写行权价', 'strike');
      const expiry = dateField(terms.expiry, '到期日', 'expiry');
      const H = need(terms.barrier, '请填写障碍价', 'barrier');
      const type = need(terms.barrier_type, '请选择障碍类型', 'barrier_type');
      const up = type.startsWith('up');
      if (up && !(H > F)) throw invalid('向上障碍的障碍价须高于当前期货价格', 'structure.barrier');
      if (!up && !(H < F)) throw invalid('向下障碍的障碍价须低于当前期货价格', 'structure.barrier');
      const times = observations(market.valuation_date, expiry, market, '到期日', 'expiry');
      const v = barrierOption({
        F,
        K,
        isCall,
        sigma,
        r,
        barrier: H,
        direction: up ? 'up' : 'down',
        knock: type.endsWith('in') ? 'in' : 'out',
        rebate: terms.rebate ?? 0,
        times,
      });
      return answer(v, 'barrier: daily closes, exact discrete monitoring (quadrature)');
    }
    case 'accumulator': {
      const side = need(terms.side, '请选择累计方向（累购或累沽）', 'side');
      const H = need(terms.barrier, '请填写敲出价', 'barrier');
      const L = need(terms.leverage, '请填写杠杆', 'leverage');
      if (!(L >= 1)) throw invalid('杠杆不能小于 1', 'structure.leverage');
      if (L > 10) throw invalid('杠杆不能大于 10', 'structure.leverage');
      const q = need(terms.quantity_per_day, '请填写每日数量', 'quantity_per_day');
      const start = dateField(terms.start, '起始日', 'start');
      const end = dateField(terms.end, '结束日', 'end');
      if (daysBetween(start, end) < 0) throw invalid('结束日不能早于起始日', 'structure.end');
      const buy = side === 'buy';
      if (buy && !(H > F)) throw invalid('累购的敲出价须高于当前期货价格', 'structure.barrier');
      if (!buy && !(H < F)) throw invalid('累沽的敲出价须低于当前期货价格', 'structure.barrier');
      const times = observations(start, end, market, '累计期', 'end');
      const base = { F, sigma, r, side, barrier: H, leverage: L, quantityPerDay: q, times };
      if (terms.solve === 'strike') {
        const K = zeroCostStrike(base);
        if (!Number.isFinite(K)) throw invalid('找不到零成本行权价', 'structure.solve');
        return answer(
          accumulator({ ...base, K }),
          'accumulator: daily closes, exact discrete monitoring (quadrature)',
          { strike: K, observations: times.length },
        );
      }
      const K = need(terms.strike, '请填写行权价', 'strike');
      if (buy && !(H > K)) throw invalid('累购的敲出价须高于行权价', 'structure.barrier');
      if (!buy && !(H < K)) throw invalid('累沽的敲出价须低于行权价', 'structure.barrier');
      return answer(accumulator({ ...base, K }), 'accumulator: daily closes, exact discrete monitoring (quadrature)', {
        observations: times.length,
      });
    }
  }
}
