/** Locale and time zone used by all formatters in this module. */
const LOCALE = 'zh-CN';
const TIME_ZONE = 'Asia/Shanghai';
/** Placeholder for missing / invalid values. */
const EMPTY = '-';

type NumericInput = number | null | undefined;

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let nf = numberFormats.get(key);
  if (nf === undefined) {
    // signDisplay 'negative' avoids '-0' for negative zero / values rounding to zero.
    nf = new Intl.NumberFormat(LOCALE, { numberingSystem: 'latn', signDisplay: 'negative', ...options });
    numberFormats.set(key, nf);
  }
  return nf;
}

function isFiniteNumber(n: NumericInput): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/**
 * zh-CN number with thousands separators: `formatNumber(1234567.891)` → '1,234,567.891'.
 * With `fractionDigits` exactly that many decimals are shown (rounded).
 * null / undefined / NaN / ±Infinity → '-'.
 */
export function formatNumber(n: NumericInput, fractionDigits?: number): string {
  if (!isFiniteNumber(n)) return EMPTY;
  const nf =
    fractionDigits === undefined
      ? numberFormat('n', {})
      : numberFormat(`n${fractionDigits}`, {
          minimumFractionDigits: fractionDigits,
          maximumFractionDigits: fractionDigits,
        });
  return nf.format(n);
}

/** Price in yuan with exactly 2 decimals: 1234.5 → '¥1,234.50', -3 → '-¥3.00'; invalid → '-'. */
export function formatPrice(n: NumericInput): string {
  if (!isFiniteNumber(n)) return EMPTY;
  const text = formatNumber(n, 2);
  return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
}

/** Quantity in lots: 1200 → '1,200 手'; invalid → '-'. */
export function formatLots(n: NumericInput): string {
  if (!isFiniteNumber(n)) return EMPTY;
  return `${formatNumber(n)} 手`;
}

/** Ratio as a percentage: `formatPercent(0.75)` → '75%', `formatPercent(0.1234, 1)` → '12.3%'; invalid → '-'. */
export function formatPercent(ratio: NumericInput, digits = 0): string {
  if (!isFiniteNumber(ratio)) return EMPTY;
  return numberFormat(`p${digits}`, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(ratio);
}

const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  numberingSystem: 'latn',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** ISO-like date/time without an offset, e.g. '2026-01-05', '2026-01-05 09:30', '2026-01-05T09:30:15.5'. */
const ZONELESS_ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?$/;

function toDate(value: string | number | Date): Date | undefined {
  let date: Date;
  if (value instanceof Date) {
    date = value;
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    date = new Date(value);
  } else {
    const text = value.trim();
    if (text === '') return undefined;
    // Times without an offset are exchange (Beijing) time, independent of the host
    // time zone. Asia/Shanghai has been a fixed UTC+8 (no DST) since 1992.
    const m = ZONELESS_ISO.exec(text);
    const time = m?.[2] ?? '00:00';
    date = m ? new Date(`${m[1]}T${time}+08:00`) : new Date(text);
  }
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Date/time in Asia/Shanghai as 'YYYY-MM-DD HH:mm' (or 'YYYY-MM-DD HH:mm:ss' with
 * `withSeconds`). Accepts a Date, epoch milliseconds or a date string; strings
 * without an offset are read as Shanghai time. Invalid input → '-'.
 */
export function formatDateTime(value: string | number | Date, withSeconds = false): string {
  const date = toDate(value);
  if (date === undefined) return EMPTY;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of dateTimeFormat.formatToParts(date)) parts[part.type] = part.value;
  const { year = '', month = '', day = '', hour = '', minute = '', second = '' } = parts;
  const hm = `${year.padStart(4, '0')}-${month}-${day} ${hour}:${minute}`;
  return withSeconds ? `${hm}:${second}` : hm;
}

/** Instrument id without its exchange prefix: 'SHFE.cu2601' → 'cu2601'; ids without a dot are unchanged. */
export function instrumentShort(instrumentId: string): string {
  const dot = instrumentId.indexOf('.');
  return dot === -1 ? instrumentId : instrumentId.slice(dot + 1);
}
