import { expect, test } from '@playwright/test';

/**
 * Fast first paint (issue 18 §7): the builds' precompressed copies reach the browser (brotli, as
 * chromium accepts it), hashed chunks are cached for a year, names that stay are revalidated.
 */
test('a cold load gets brotli, immutable hashed chunks and revalidated entries', async ({ page }) => {
  const responses: Promise<{
    path: string;
    type: string;
    encoding: string | null;
    cache: string | null;
    wire: number;
    raw: number;
  }>[] = [];
  page.on('requestfinished', (r) => {
    responses.push(
      Promise.all([r.sizes(), r.response()]).then(async ([sizes, res]) => ({
        path: new URL(r.url()).pathname,
        type: r.resourceType(),
        encoding: (await res?.headerValue('content-encoding')) ?? null,
        cache: (await res?.headerValue('cache-control')) ?? null,
        wire: sizes.responseBodySize,
        raw: (await res?.body())?.length ?? 0,
      })),
    );
  });
  await page.goto('/volatility-surface');
  await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(responses);

  const files = loaded.filter((r) => r.type === 'document' || r.type === 'script' || r.type === 'stylesheet');
  expect(files.length).toBeGreaterThan(10);
  for (const f of files) {
    if (f.raw >= 1024) expect(f.encoding, f.path).toBe('br');
    if (/^(\/remotes\/\w+)?\/assets\//.test(f.path)) {
      expect(f.cache, f.path).toBe('public, max-age=31536000, immutable');
    } else if (f.type === 'document' || f.path.endsWith('/remoteEntry.js')) {
      expect(f.cache, f.path).toBe('no-cache');
    }
  }
  const wire = files.reduce((s, f) => s + f.wire, 0);
  const raw = files.reduce((s, f) => s + f.raw, 0);
  expect(wire).toBeLessThan(raw * 0.4);
});
