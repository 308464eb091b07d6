/**
 * What the console shows beside a price (docs/pricing.md): the future's multiplier and quantity unit, and the chain's
 * market points — the listed strikes' implied vols of one expiry — to read the used vol against.
 */
import { black76ImpliedVol, daysBetween } from '@pfp/quant';
import type { Database } from '../../platform/db/database';
import type { AppContext } from '../context';
import { LIVE_RATE, optionPrice } from './liveMarket';

export async function instrumentFacts(db: Database, symbol: string) {
  const row = await db
    .selectFrom('instruments')
    .select(['volume_multiple', 'unit'])
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return row ? { multiplier: row.volume_multiple, unit: row.unit } : {};
}

/**
 * The listed strikes' Black-76 vols of the expiry nearest the structure's last date (the first on or after it, else
 * the last listed); per strike the mean of the call's and the put's where both have a price. Undefined: no chain.
 */
export function chainVols(
  ctx: Pick<AppContext, 'optionMarket'>,
  future: string,
  forward: number,
  today: string,
  lastDate: string | undefined,
): { expiry: string; points: { strike: number; vol: number }[] } | undefined {
  const chain = ctx.optionMarket?.optionChain(future).filter((o) => daysBetween(today, o.expiry) >= 0) ?? [];
  if (chain.length === 0) return undefined;
  const expiries = [...new Set(chain.map((o) => o.expiry))].sort();
  const expiry = expiries.find((e) => lastDate !== undefined && e >= lastDate) ?? expiries[expiries.length - 1]!;
  const T = Math.max(daysBetween(today, expiry), 1) / 365;
  const byStrike = new Map<number, number[]>();
  for (const o of chain.filter((x) => x.expiry === expiry)) {
    const q = ctx.optionMarket!.getQuote(o.symbol);
    const price = q && optionPrice(q);
    if (!price) continue;
    const v = black76ImpliedVol(price, forward, o.strike, T, LIVE_RATE, o.optionType === 'CALL');
    if (!(v > 0 && Number.isFinite(v))) continue;
    byStrike.set(o.strike, [...(byStrike.get(o.strike) ?? []), v]);
  }
  const points = [...byStrike]
    .map(([strike, vols]) => ({ strike, vol: vols.reduce((a, b) => a + b, 0) / vols.length }))
    .sort((a, b) => a.strike - b.strike);
  return { expiry, points };
}
