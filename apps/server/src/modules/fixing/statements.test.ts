import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Confirmation } from './confirmations';
import { csvStream, SUMMARY_HEADERS, summaryCells, totalsCells, xlsxStream } from './statements';
import type { ContractSummary } from './confirmations';

/** A confirmation whose customer and contract names were typed to be formulas (CSV injection). */
const hostile: Confirmation = {
  order_id: 7,
  confirmation_no: 'DJ-1-7',
  company_name: '演示贸易有限公司',
  pricer_id: 1,
  pricer_name: '=HYPERLINK("http://evil.example","点我")',
  contract_id: 2,
  contract_name: '+SUM(1,2)',
  product_name: '-2+3',
  instrument_id: '@SUM(1)',
  instrument_name: null,
  direction: 'BUY',
  lots: 2,
  futures_price: 80_000,
  basis: -150,
  fixed_price: 79_850,
  multiplier: 5,
  amount: 798_500,
  fixed_at: new Date('2026-03-02T02:00:00Z'),
  ordered_at: new Date('2026-03-02T02:00:00Z'),
  status: 'FINISHED',
  acknowledged_at: null,
};

async function* batches(rows: Confirmation[]) {
  yield rows;
}

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

describe('statements never carry a formula', () => {
  it('writes text cells beginning with = + - @ behind a quote in the CSV; numbers stay numbers', async () => {
    const csv = (await read(csvStream(batches([hostile])))).toString('utf8');
    const line = csv.split('\r\n')[1]!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""点我"")"`);
    expect(line).toContain(`"'+SUM(1,2)"`);
    expect(line).toContain(`,'-2+3,`);
    expect(line).toContain(`,'@SUM(1),`);
    // The negative basis is a number, not text: written as it is.
    expect(line).toContain(',-150,');
    // No field of the line starts with a formula character once parsed.
    for (const field of line.match(/("([^"]|"")*"|[^,]*)/g)!.filter(Boolean)) {
      const value = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
      if (!/^-?\d/.test(value)) expect(value, field).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('writes them as quoted text in the workbook too (title included)', async () => {
    const buffer = await read(xlsxStream(batches([hostile]), '=1+1 对账单'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('点价确认单')!;
    expect(sheet.getCell('A1').value).toBe("'=1+1 对账单");
    const row = sheet.getRow(3);
    const texts = (row.values as unknown[]).filter((v): v is string => typeof v === 'string');
    expect(texts).toContain(`'=HYPERLINK("http://evil.example","点我")`);
    expect(texts).toContain("'+SUM(1,2)");
    for (const t of texts) expect(t).not.toMatch(/^[=+\-@\t\r]/);
    // Formulas would be objects ({ formula }); none was written.
    expect((row.values as unknown[]).some((v) => typeof v === 'object' && v !== null && 'formula' in v)).toBe(false);
    expect(row.getCell(10).value).toBe(-150);
  });
});

describe('the statement summary (对账汇总)', () => {
  const copper: ContractSummary = {
    contract_id: 1,
    contract_name: '铜-饲料厂',
    pricer_name: '饲料厂有限公司',
    product_name: '铜',
    instrument_id: 'SHFE.cu2701',
    direction: 'BUY',
    total_lots: 20,
    fixed_lots: 2,
    unfixed_lots: 18,
    multiplier: 5,
    unit: '吨',
    avg_fixed_price: 82_200,
    amount: 822_000,
    fees: 1_500,
  };
  it('carries each contract’s roll and extension fees (issue 32) and totals them', () => {
    const row = summaryCells(copper);
    expect(row).toHaveLength(SUMMARY_HEADERS.length);
    expect(SUMMARY_HEADERS[row.length - 1]).toBe('转月/延期费（元）');
    expect(row[row.length - 1]).toBe(1_500);
    const totals = totalsCells([copper, { ...copper, contract_id: 2, fees: 250.5 }]);
    expect(totals[0]).toBe('合计（2 个合同）');
    expect(totals[totals.length - 1]).toBe(1_750.5);
    expect(totals[6]).toBe(200);
  });
});
