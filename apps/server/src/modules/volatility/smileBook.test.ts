import { fitSvi } from '@pfp/quant';
import { afterEach, describe, expect, it } from 'vitest';
import { futuresWithOptions } from '../../market/catalogue';
import { forwardPrice } from '../../market/quote';
import { SimExchange } from '../../market/simExchange';
import { DomainError } from '../../platform/errors';
import { shanghaiDate } from '../../platform/time';
import { CurveWorkers } from './curveWorkers';
import { SmileBook, type ProductSmile } from './smileBook';
import { chainPoints } from './smileFit';

/*
 * The smile book fits on the curve workers (docs/smile.md "Off the main thread"): this thread posts the chains and
 * keeps the fitted parameters the workers send back. Checked by where the answers come from (the pool's count of
 * fits it answered) and by a worker that dies or hangs mid-fit, never by timing.
 */

const T0 = shanghaiDate('2026-11-23 10:00');
const pools: CurveWorkers[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function setup() {
  let t = T0.getTime();
  const sim = new SimExchange({ seed: 23, now: () => new Date(t) });
  const products = [futuresWithOptions('SHFE', 'cu', T0), futuresWithOptions('DCE', 'm', T0)];
  sim.subscribeChains(products.flat().map((f) => f.symbol));
  const pool = new CurveWorkers(1);
  pools.push(pool);
  const now = () => t;
  const onWorkers = new SmileBook(sim, { now });
  onWorkers.fitter = pool;
  // The same book fitting on this thread (CURVE_WORKERS=0): what the workers must reproduce.
  const inline = new SmileBook(sim, { now });
  // Refitted when the test says, as the server's timer does (a stale read then schedules nothing).
  onWorkers.timed = inline.timed = true;
  const step = (n: number) => {
    for (let i = 0; i < n; i++) {
      t += 500;
      sim.step();
    }
  };
  /** A chain fitted as the book did before its fits moved: the market's own option and quote objects, in line. */
  const direct = (future: string) => {
    const options = sim.optionChain(future).filter((o) => o.expiryMs - t >= 86_400_000);
    const F = forwardPrice(sim.getQuote(future))!;
    const points = chainPoints(
      options.map((spec) => ({ spec, quote: sim.getQuote(spec.symbol) })),
      F,
      t,
    );
    return { points, params: fitSvi(points, (options[0]!.expiryMs - t) / (365 * 86_400_000))!.params };
  };
  return { pool, onWorkers, inline, step, now, direct, cu: products[0]![2]!.symbol, m: products[1]![1]!.symbol };
}

/** What a fit is: everything but its wall time. */
const fitted = (s: ProductSmile | undefined) =>
  s && {
    product: s.product,
    at: s.at,
    chains: s.chains.map(({ fitMs: _fitMs, ...c }) => c),
  };

describe('smile fits on the curve workers', () => {
  it('the book keeps what the workers fitted: the same parameters, to the bit, as a fit on this thread', async () => {
    const { pool, onWorkers, inline, step, direct, cu } = setup();
    const first = await onWorkers.product(cu);
    expect(first!.chains.length).toBeGreaterThan(3);
    expect(pool.smileFits).toBe(1);
    expect(fitted(first)).toEqual(fitted(await inline.product(cu)));
    for (const c of first!.chains) expect({ points: c.points, params: c.fit.params }).toEqual(direct(c.future));
    // The quotes move; a refresh refits on the worker what moved.
    step(20);
    await Promise.all([onWorkers.refresh(), inline.refresh()]);
    const again = await onWorkers.product(cu);
    expect(again).not.toBe(first);
    expect(pool.smileFits).toBe(2);
    expect(fitted(again)).toEqual(fitted(await inline.product(cu)));
  });

  it('a worker that dies mid-fit: the fit starts over on its replacement, and no error reaches the reader', async () => {
    const { pool, onWorkers, inline, step, now, cu } = setup();
    await onWorkers.product(cu);
    const dying = pool.threads[0]!;
    step(20);
    // The refresh has posted the product's chains; the worker goes away as a crash would take it.
    const refreshing = onWorkers.refresh();
    await dying.terminate();
    await refreshing;
    expect(pool.threads[0]).not.toBe(dying);
    const after = await onWorkers.product(cu);
    expect(after!.at).toBe(now());
    expect(fitted(after)).toEqual(fitted(await inline.product(cu)));
  });

  it('a fit the worker does not answer keeps the last good smile; a product never fitted is a 503 in Chinese', async () => {
    const { pool, onWorkers, step, cu, m } = setup();
    const good = await onWorkers.product(cu);
    const stuck = pool.threads[0]!;
    // Every fit now outlasts its time limit: the worker is taken as stuck and replaced.
    pool.fitTimeoutMs = 1;
    step(20);
    await onWorkers.refresh();
    expect(await onWorkers.product(cu)).toBe(good);
    const refused = await onWorkers.product(m).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'unavailable', message: '波动率微笑曲面暂时无法拟合，请稍后重试' });
    // Once fits are answered in time again: the product's smile is refitted, the other one fits on its next read.
    pool.fitTimeoutMs = 20_000;
    await onWorkers.refresh();
    const refitted = await onWorkers.product(cu);
    expect(refitted).not.toBe(good);
    expect(refitted!.at).toBeGreaterThan(good!.at);
    expect((await onWorkers.product(m))!.chains.length).toBeGreaterThan(0);
    expect(pool.threads).not.toContain(stuck);
  });
});
