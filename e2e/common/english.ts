import { expect, type Page } from '@playwright/test';

/**
 * "No English for users" (the developers' guide): the Latin words a screen shows or announces.
 * Scanned: the text of every rendered element and the aria-label, title, placeholder and alt of
 * every element (a screen reader reads them). Allowed: data and identifiers, not words of the UI:
 * instrument and exchange ids (SHFE.cu2701, cu2701, SR703), user names with digits (pricer1),
 * URLs and paths, single letters (the brokers' initials), key names and what a test passes in `allow`.
 */
const ALLOWED = [
  /^[A-Z]{2,6}\.[A-Za-z]{1,3}\d{3,4}(-[CP]-\d+)?$/, // SHFE.cu2701, a qualified option
  /^[A-Za-z]{1,3}\d{3,4}$/, // cu2701, SR703
  /^(SHFE|DCE|CZCE|CFFEX|GFEX|INE)$/, // exchange ids
  /^[A-Za-z][A-Za-z0-9_.@-]*\d[A-Za-z0-9_.@-]*$/, // ids and user names with a digit: pricer1, kehu01
  /^(Alt|Ctrl|Cmd|Shift|Esc)$/, // key names in shortcuts: 通知 Alt+T, Ctrl+B
  /^simnow$/, // the simulation broker's name (SPEC §3)
  /^PTA$/, // a product's name in Chinese markets (packages/i18n products: CZCE TA)
];

/** Addresses and paths are data (the 404 page shows the path it could not find). */
const URL_PATTERN = /\bhttps?:\/\/\S+|(?<![\w])\/[\w./?=&%-]*/g;
const WORD = /[A-Za-z][A-Za-z0-9_.@-]*/g;

export interface EnglishFinding {
  word: string;
  where: string;
}

/** The Latin words on the page now, with where they were found. */
export async function latinWords(page: Page): Promise<{ word: string; where: string; text: string }[]> {
  const found = await page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const testId = el.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}`;
    };
    const rendered = (el: Element) =>
      !(el instanceof HTMLElement) || el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    for (const el of document.body.querySelectorAll('*')) {
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription']) {
        const value = el.getAttribute(attr);
        if (value) out.push({ text: value, where: `${describe(el)} @${attr}` });
      }
      if (!rendered(el)) continue;
      for (const node of el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
          out.push({ text: node.textContent, where: describe(el) });
        }
      }
    }
    out.push({ text: document.title, where: 'title' });
    return out;
  });
  const words: { word: string; where: string; text: string }[] = [];
  for (const { text, where } of found) {
    for (const word of text.replace(URL_PATTERN, ' ').match(WORD) ?? []) words.push({ word, where, text });
  }
  return words;
}

/** Fails on any Latin word of the page that is not data or an allowed identifier. */
export async function expectNoEnglish(page: Page, screen: string, allow: readonly (string | RegExp)[] = []) {
  const rules = [...ALLOWED, ...allow.map((a) => (typeof a === 'string' ? new RegExp(`^${a}$`) : a))];
  const words = await latinWords(page);
  const english = words
    .map((w) => ({ ...w, word: w.word.replace(/[._@-]+$/, '') }))
    .filter((w) => w.word.length > 1 && !rules.some((r) => r.test(w.word)))
    .map((w) => `${w.word} (${w.where}: ${JSON.stringify(w.text.trim().slice(0, 80))})`);
  expect([...new Set(english)], `English on ${screen}`).toEqual([]);
}
