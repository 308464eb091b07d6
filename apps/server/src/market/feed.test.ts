import { afterEach, describe, expect, it } from 'vitest';
import { DiffMarketData } from '../diff/marketData';
import { FakeDiffServer } from '../../test/diff/fakeServer';
import { diffFeed } from './feed';

let server: FakeDiffServer | undefined;
afterEach(async () => server?.close());

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('DIFF market feed (MARKET_SOURCE=diff)', () => {
  it('subscribes an instrument when its quote is first asked for and ticks on changes', async () => {
    server = await FakeDiffServer.start();
    const feed = diffFeed(new DiffMarketData({ url: server.url }));
    feed.start();
    const ticks: string[] = [];
    feed.onTick((qs) => qs.forEach((q) => ticks.push(q.symbol)));
    expect(feed.getQuote('SHFE.cu2601')).toBeUndefined();
    await until(() => (feed.getQuote('SHFE.cu2601')?.last_price ?? 0) > 0);
    server.setQuote('SHFE.cu2601', { last_price: 80010 });
    await until(() => feed.getQuote('SHFE.cu2601')?.last_price === 80010);
    expect(ticks).toContain('SHFE.cu2601');
    feed.stop();
  });
});
