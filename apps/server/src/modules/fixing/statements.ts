import { zh } from '@pfp/i18n';
import { PassThrough, type Readable } from 'node:stream';
import { beijingText, shanghaiWallClock } from '../../platform/time';
import type { StatementEntry } from '../margin/ledger';
import type { Confirmation, ContractSummary } from './confirmations';

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
  // 均价依据 of a day's 均价点价 (issue 43): 均价点价（结算价） / 均价点价（成交价）; a customer's own fix: 点价.
  {
    header: '点价方式',
    key: 'pricing_mode',
    width: 18,
    value: (c) => (c.average_basis ? zh.averageBasis.mode(c.average_basis) : zh.lifecycle.pricingModes.point),
  },
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
export function csvStream(rows: AsyncIterable<Confirmation[]>, summary?: Promise<ContractSummary[]>): Readable {
  const out = new PassThrough();
  void (async () => {
    out.write(`\uFEFF${STATEMENT_COLUMNS.map((c) => c.header).join(',')}\r\n`);
    for await (const batch of rows) {
      if (!out.write(batch.map((c) => `${csvLine(c)}\r\n`).join(''))) {
        await new Promise((r) => out.once('drain', r));
      }
    }
    if (summary) out.write(summaryCsv(await summary));
    out.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

// ---- 对账汇总: the per-contract summary and its totals (issue 29) ---------------------------------

type Cell = string | number | Date | null;

/** Lots × multiplier: the goods a number of lots stands for (null without a multiplier). */
const units = (lots: number, multiplier: number | null) => (multiplier ? lots * multiplier : null);

export const SUMMARY_HEADERS = [
  '合同',
  '客户',
  '品种',
  '期货合约',
  '方向',
  '合同总量（手）',
  '合同总量（数量）',
  '已点价（手）',
  '已点价（数量）',
  '未点价（手）',
  '未点价（数量）',
  '单位',
  '点价均价（元/单位）',
  '点价金额（元）',
  '转月/延期费（元）',
] as const;

const SUMMARY_FORMATS = [
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  '#,##0',
  '#,##0.###',
  '#,##0',
  '#,##0.###',
  '#,##0',
  '#,##0.###',
  undefined,
  '#,##0.00##',
  '#,##0.00',
  '#,##0.00',
];
const SUMMARY_WIDTHS = [24, 24, 10, 16, 8, 14, 16, 12, 16, 12, 16, 8, 18, 18, 18];

export function summaryCells(s: ContractSummary): Cell[] {
  return [
    s.contract_name,
    s.pricer_name,
    s.product_name,
    s.instrument_id,
    DIRECTION[s.direction] ?? s.direction,
    s.total_lots,
    units(s.total_lots, s.multiplier),
    s.fixed_lots,
    units(s.fixed_lots, s.multiplier),
    s.unfixed_lots,
    units(s.unfixed_lots, s.multiplier),
    s.unit ?? '',
    s.avg_fixed_price,
    s.amount,
    s.fees,
  ];
}

/**
 * The totals row: lots and amount summed; quantities summed only when every contract counts in the
 * same unit (tons and grams do not add up); no average across contracts (different goods).
 */
export function totalsCells(rows: ContractSummary[]): Cell[] {
  const sum = (f: (s: ContractSummary) => number | null) => rows.reduce((a, s) => a + (f(s) ?? 0), 0);
  const unitsOf = new Set(rows.map((s) => s.unit));
  const oneUnit = unitsOf.size === 1 && rows.every((s) => s.multiplier) ? rows[0]!.unit : undefined;
  const qty = (f: (s: ContractSummary) => number) =>
    oneUnit === undefined ? null : sum((s) => units(f(s), s.multiplier));
  return [
    `合计（${rows.length} 个合同）`,
    '',
    '',
    '',
    '',
    sum((s) => s.total_lots),
    qty((s) => s.total_lots),
    sum((s) => s.fixed_lots),
    qty((s) => s.fixed_lots),
    sum((s) => s.unfixed_lots),
    qty((s) => s.unfixed_lots),
    oneUnit ?? '',
    null,
    Math.round(sum((s) => s.amount) * 100) / 100,
    Math.round(sum((s) => s.fees) * 100) / 100,
  ];
}

/** The summary as CSV lines (after the detail, one blank line and a section title between). */
export function summaryCsv(rows: ContractSummary[]): string {
  const line = (cells: readonly Cell[]) => cells.map(csvField).join(',');
  return ['', '对账汇总', line(SUMMARY_HEADERS), ...rows.map((r) => line(summaryCells(r))), line(totalsCells(rows))]
    .map((l) => `${l}\r\n`)
    .join('');
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
  summary?: Promise<ContractSummary[]>,
): Readable {
  const out = new PassThrough();
  void (async () => {
    // Loaded at the first download, not at every start (~0.1 CPU-s of a server's start, a restart after a crash too).
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    workbook.creator = '快期点价宝';
    if (summary) {
      // First: what a statement is read for (per contract total / fixed / unfixed, average, amount).
      const contracts = await summary;
      const sheet = workbook.addWorksheet('对账汇总', { views: [{ state: 'frozen', ySplit: 2 }] });
      sheet.columns = SUMMARY_HEADERS.map((_, i) => ({
        key: `c${i}`,
        width: SUMMARY_WIDTHS[i],
        ...(SUMMARY_FORMATS[i] ? { style: { numFmt: SUMMARY_FORMATS[i] } } : {}),
      }));
      sheet.addRow([inertText(title.replace('点价确认单', '点价对账单'))]).commit();
      const head = sheet.addRow([...SUMMARY_HEADERS]);
      head.font = { bold: true };
      head.commit();
      for (const c of contracts) sheet.addRow(summaryCells(c).map(inert)).commit();
      const totals = sheet.addRow(totalsCells(contracts).map(inert));
      totals.font = { bold: true };
      totals.commit();
      sheet.commit();
    }
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
