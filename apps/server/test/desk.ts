import { expect } from 'vitest';
import { triggerConditional } from '../src/modules/conditional/conditional';
import type { AppContext } from '../src/modules/context';
import type { QuoteOf } from '../src/platform/quote';
import { createTradingService, type TradingServiceOptions } from '../src/trading/service';
import { startHarness, type Harness } from './harness';
import type { Tenant } from './tenants';
import { FakeQuotes, setMarket } from './trading/testSupport';

/**
 * The real app with the real trading service on fake quotes: what the HTTP suites of fixing, customers and
 * the audit log start from (`quote`: the app reads these quotes too; `fillsBooked`: the fills' hook, e.g.
 * notifications; `app`: more of the app's context, e.g. a config of the suite's own). `stop` ends the service,
 * then the app.
 */
export async function startDesk(
  opts: {
    quote?: (quotes: FakeQuotes) => QuoteOf;
    fillsBooked?: TradingServiceOptions['fillsBooked'];
    app?: Partial<AppContext>;
  } = {},
) {
  const quotes = new FakeQuotes();
  const h = await startHarness({ ...opts.app, ...(opts.quote ? { quote: opts.quote(quotes) } : {}) });
  const service = createTradingService({
    trigger: triggerConditional,
    ...(opts.fillsBooked ? { fillsBooked: opts.fillsBooked } : {}),
    db: h.db,
    quotes,
    sweepMs: 60_000,
    simExpiryCheckMs: 0,
  });
  h.ctx.tradingPort = service.events;
  await service.start();
  return {
    h,
    service,
    quotes,
    async stop() {
      await service.stop();
      await h.close();
    },
  };
}

/** The tenant's copper future and the next month's, both quoted (80 000 and 80 100): answers the next month's. */
export async function quoteCopperMonths(h: Harness, quotes: FakeQuotes, t: Tenant) {
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, t.token)).body.data.items;
  const far: string = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > t.symbol);
  quotes.addInstrument(t.symbol, 10);
  quotes.addInstrument(far, 10);
  setMarket(quotes, t.symbol, 80_000);
  setMarket(quotes, far, 80_100);
  return far;
}

/** A call that must answer 200: its data (the failure names the path and the answer). */
export async function callOk(h: Harness, path: string, body: Record<string, unknown>, token: string) {
  const res = await h.call(path, body, token);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}

/** A customer's (or 授权点价人's) sign-in with a password: the answer as it came. */
export const pricerSignIn = (h: Harness, t: Tenant, username: string, password: string) =>
  h.call('/api/pricer/rpc/pricer-login', { tenant_id: t.tenantId, username, password });
