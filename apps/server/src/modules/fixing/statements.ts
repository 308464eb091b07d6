import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { beijingText, shanghaiWallClock } from '../../platform/time';
import type { StatementEntry } from '../margin/ledger';
import type { Confirmation } from './confirmations';

/**
 * Statements (对账单): confirmations written as an Excel workbook (exceljs' streaming writer) or as
 * UTF-8 CSV with a BOM (Excel opens it as UTF-8). Numbers stay numbers (no thousands separators in
 * the CSV; the workbook formats them as cells), times are Beijing time: in the workbook as real date
 * cells holding the Beijing wall-clock time (Excel dates have no time zone), in the CSV as text.
 */

const DIRECTION = { BUY: '买入', SELL: '卖出' } as const;

interface Column {
  header: string;
  key: string;
  width: number;
  value: (c: Confirmation) => string | number | Date | null;
  numFmt?: string;
}

/** The Beijing wall-clock time to the second as a zone-less Date (what Excel shows; the CSV's text). */
const beijingWallClock = (d: Date) => shanghaiWallClock(Math.floor(d.getTime() / 1000) * 1000);

export const STATEMENT_COLUMNS: Column[] = [
  { header: '确认单号', key: 'confirmation_no', width: 20, value: (c) => c.confirmation_no },
  {
    header: '点价时间',
    key: 'fixed_at',
    width: 20,
    value: (c) => beijingWallClock(c.fixed_at),
    numFmt: 'yyyy-mm-dd hh:mm:ss',
  },
  { header: '客户', key: 'pricer_name', width: 24, value: (c) => c.pricer_full_name || c.pricer_name },
  { header: '合同', key: 'contract_name', width: 24, value: (c) => c.contract_name },
  { header: '品种', key: 'product_name', width: 10, value: (c) => c.product_name },
  { header: '期货合约', key: 'instrument_id', width: 16, value: (c) => c.instrument_id },
  { header: '方向', key: 'direction', width: 8, value: (c) => DIRECTION[c.direction] ?? c.direction },
  { header: '成交手数', key: 'lots', width: 10, value: (c) => c.lots, numFmt: '0' },
  { header: '期货成交价', key: 'futures_price', width: 14, value: (c) => c.futures_price, numFmt: '0.00##' },
  { header: '基差', key: 'basis', width: 10, value: (c) => c.basis, numFmt: '0.00##' },
  { header: '点价价格', key: 'fixed_price', width: 14, value: (c) => c.fixed_price, numFmt: '0.00##' },
  { header: '合约乘数', key: 'multiplier', width: 10, value: (c) => c.multiplier, numFmt: '0' },
  { header: '金额（元）', key: 'amount', width: 18, value: (c) => c.amount, numFmt: '#,##0.00' },
  { header: '订单号', key: 'order_id', width: 10, value: (c) => c.order_id, numFmt: '0' },
];

/**
 * A text cell a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first:
 * OWASP's "CSV injection") is written behind a single quote, so Excel and LibreOffice show it as the
 * text it is, in the CSV and in the workbook alike. Numbers and dates are cells of their own type.
 */
export function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const inert = (v: string | number | Date | null) => (typeof v === 'string' ? inertText(v) : v);

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(v: string | number | Date | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  const text = v instanceof Date ? '' : inertText(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(c: Confirmation): string {
  return STATEMENT_COLUMNS.map((col) =>
    col.key === 'fixed_at' ? beijingText(c.fixed_at) : csvField(col.value(c)),
  ).join(',');
}

/** Streams the rows as CSV with a BOM; errors end the stream with the error. */
export function csvStream(rows: AsyncIterable<Confirmation[]>): Readable {
  const out = new PassThrough();
  void (async () => {
    out.write(`\uFEFF${STATEMENT_COLUMNS.map((c) => c.header).join(',')}\r\n`);
    for await (const batch of rows) {
      if (!out.write(batch.map((c) => `${csvLine(c)}\r\n`).join(''))) {
        await new Promise((r) => out.once('drain', r));
      }
    }
    out.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

const LEDGER_KINDS = { deposit: '入金', withdraw: '出金', adjust: '调整' } as const;

/**
 * Streams the rows as an .xlsx workbook, one sheet 点价确认单, with a title row naming company and range;
 * with `ledger`, a second sheet 资金流水 with the customers' funds entries of the range.
 */
export function xlsxStream(
  rows: AsyncIterable<Confirmation[]>,
  title: string,
  ledger?: AsyncIterable<StatementEntry[]>,
): Readable {
  const out = new PassThrough();
  void (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    workbook.creator = '快期点价宝';
    const sheet = workbook.addWorksheet('点价确认单', { views: [{ state: 'frozen', ySplit: 2 }] });
    sheet.columns = STATEMENT_COLUMNS.map((c) => ({
      key: c.key,
      width: c.width,
      ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
    }));
    sheet.addRow([inertText(title)]).commit();
    const header = sheet.addRow(STATEMENT_COLUMNS.map((c) => c.header));
    header.font = { bold: true };
    header.commit();
    for await (const batch of rows) {
      for (const c of batch) sheet.addRow(STATEMENT_COLUMNS.map((col) => inert(col.value(c)))).commit();
    }
    sheet.commit();
    if (ledger) {
      const funds = workbook.addWorksheet('资金流水', { views: [{ state: 'frozen', ySplit: 1 }] });
      funds.columns = [
        { key: 'time', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
        { key: 'pricer', width: 16 },
        { key: 'kind', width: 8 },
        { key: 'amount', width: 16, style: { numFmt: '#,##0.00' } },
        { key: 'balance', width: 16, style: { numFmt: '#,##0.00' } },
        { key: 'note', width: 30 },
      ];
      const head = funds.addRow(['时间', '客户', '类型', '金额（元）', '余额（元）', '备注']);
      head.font = { bold: true };
      head.commit();
      for await (const batch of ledger) {
        for (const e of batch)
          funds
            .addRow([
              beijingWallClock(new Date(e.created_at)),
              inertText(e.pricer_name),
              LEDGER_KINDS[e.kind],
              e.amount,
              e.balance_after,
              inertText(e.note),
            ])
            .commit();
      }
      funds.commit();
    }
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
