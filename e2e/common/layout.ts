import type { Locator } from '@playwright/test';

/**
 * How many lines the element's text takes on screen, as a person counts them: the distinct rows of
 * the text's boxes (a date broken as '2026-' over '11-30' is two).
 */
export async function textLines(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}
