import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { shanghaiToday } from '../contracts/fixingTerms';
import type { TradingService } from '../../trading/service';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import { tradingDayIn } from '../../../test/days';

/*
 * The business calls over HTTP on the real app, with the real trading service and its simulated
 * broker filling against a market the test sets: contract terms, fixed prices in every answer,
 * confirmations, exposure, statements (xlsx read back with exceljs, CSV) and the audit log, each
 * with tenant and customer isolation.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
const DEADLINE = tradingDayIn(30);
// A range around today, so that a test running across Beijing midnight still finds its fills.
const FROM = shanghaiToday(new Date(Date.now() - 86_400_000));
const TO = shanghaiToday(new Date(Date.now() + 86_400_000));

const newContract = (t: Tenant, pricer: string, extra: Record<string, unknown> = {}) =>
  createContract<{ id: number; direction: 'BUY' | 'SELL' }>(h, t, pricer, DEADLINE, extra);

const market = (symbol: string, price: number, lots: number) => setMarket(quotes, symbol, price, lots);

async function fix(t: Tenant, pricer: string, contractId: number, quantity: number) {
  const order = await callOk(
    h,
    '/api/pricer/rpc/submit-order',
    { contract_id: contractId, quantity, price: 0 },
    t.pricers[pricer]!.jwt,
  );
  await service.idle();
  return order.id as number;
}

async function download(url: string, token: string) {
  const res = await h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return res;
}

async function readWorkbook(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet('点价确认单')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk());
  a = await setupTenant(h, 'trader-fix-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-fix-b', '乙贸易', ['carol']);
  quotes.addInstrument(a.symbol, 10);
});
afterAll(() => stop?.());

describe('contract terms over HTTP', () => {
  it('requires basis and fixing_deadline, naming the field, and stores nothing on refusal', async () => {
    const base = {
      pricer_id: a.pricers.alice!.id,
      product_name: '铜',
      instrument_id: a.symbol,
      direction: 'BUY',
      total_quantity: 5,
      basis: 150,
      fixing_deadline: DEADLINE,
    };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, basis: undefined }, 'basis', '请输入基差（可为负数）'],
      [{ ...base, basis: '150' }, 'basis', '请输入基差（可为负数）'],
      [{ ...base, basis: -15.505 }, 'basis', '基差最多两位小数（精确到分）'],
      [{ ...base, basis: 1e-7 }, 'basis', '基差最多两位小数（精确到分）'],
      [{ ...base, basis: 1e300 }, 'basis', '基差超出范围（绝对值不超过 1,000,000 元）'],
      [{ ...base, fixing_deadline: undefined }, 'fixing_deadline', '请选择点价截止日'],
      [{ ...base, fixing_deadline: '2026-02-30' }, 'fixing_deadline', '点价截止日应为有效日期（YYYY-MM-DD）'],
      [{ ...base, fixing_deadline: '2020-01-01' }, 'fixing_deadline', '点价截止日不能早于今天'],
    ];
    const before = (await h.call('/api/trader/view/contracts', {}, a.token)).body.data.total_count;
    for (const [body, field, message] of cases) {
      const res = await h.call('/api/trader/rpc/create-contract', body, a.token);
      expect(res.status, message).toBe(400);
      expect(res.body.error).toMatchObject({ field, message });
    }
    expect((await h.call('/api/trader/view/contracts', {}, a.token)).body.data.total_count).toBe(before);
  });

  it('takes the basis as a commercial number: +185 on copper (tick 10) and -15.5 come back exactly', async () => {
    for (const basis of [185, -15.5, 0.29]) {
      const c = await newContract(a, 'alice', { basis, total_quantity: 1 });
      expect(c).toMatchObject({ basis });
      const viewed = (await h.call('/api/trader/view/contracts', { filter: `id = ${c.id}` }, a.token)).body.data;
      expect(viewed.items[0]).toMatchObject({ basis });
    }
  });

  it('offers physical contracts on commodity futures only: no index or bond futures in the picker, a 400 on create', async () => {
    const products = (await h.call('/api/trader/view/products', { filter: 'commodity is true' }, a.token)).body.data
      .items as { name: string; exchange_id: string }[];
    const names = products.map((p) => p.name);
    expect(names).toContain('铜');
    expect(names).not.toContain('沪深300股指');
    expect(products.filter((p) => p.exchange_id === 'CFFEX')).toEqual([]);
    for (const product_name of ['沪深300股指', '10年期国债']) {
      const instruments = await h.call('/api/trader/view/instruments', { product_name }, a.token);
      const symbol = instruments.body.data.items[0]?.symbol as string;
      expect(symbol, product_name).toMatch(/^CFFEX\./);
      const before = (await h.call('/api/trader/view/contracts', {}, a.token)).body.data.total_count;
      const res = await h.call(
        '/api/trader/rpc/create-contract',
        {
          pricer_id: a.pricers.alice!.id,
          product_name,
          instrument_id: symbol,
          direction: 'BUY',
          total_quantity: 1,
          basis: 0,
          fixing_deadline: DEADLINE,
        },
        a.token,
      );
      expect(res.status, product_name).toBe(400);
      expect(res.body.error).toMatchObject({
        field: 'product_name',
        message: expect.stringContaining('只能选择商品期货'),
      });
      expect((await h.call('/api/trader/view/contracts', {}, a.token)).body.data.total_count).toBe(before);
    }
  });

  it('returns the same fixed price in the trader orders view, my-orders, the snapshot and the confirmation', async () => {
    const c = await newContract(a, 'alice', { basis: -30 });
    market(a.symbol, 80_000, 3);
    const orderId = await fix(a, 'alice', c.id, 3);

    const trader = (await h.call('/api/trader/view/orders', { filter: `id = ${orderId}` }, a.token)).body.data.items[0];
    const mine = (await h.call('/api/pricer/view/my-orders', { contract_id: c.id }, a.pricers.alice!.jwt)).body.data
      .items[0];
    const snap = (await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt)).body.data;
    const conf = (await h.call('/api/pricer/view/confirmation', { order_id: orderId }, a.pricers.alice!.jwt)).body.data;
    // 80,000 − 30 = 79,970; × 3 lots × 5 (copper) = 1,199,550.
    for (const row of [trader, mine, snap.orders.find((o: { id: number }) => o.id === orderId)]) {
      expect(row).toMatchObject({ basis: -30, fixed_price: 79_970, fixed_amount: 1_199_550, multiplier: 5 });
    }
    expect(conf).toMatchObject({
      order_id: orderId,
      company_name: '甲贸易',
      pricer_name: 'alice',
      direction: 'BUY',
      lots: 3,
      futures_price: 80_000,
      basis: -30,
      fixed_price: 79_970,
      multiplier: 5,
      amount: 1_199_550,
    });
    const fillDay = shanghaiToday(new Date(conf.fixed_at)).replaceAll('-', '');
    expect(conf.confirmation_no).toBe(`QR${fillDay}-${String(orderId).padStart(6, '0')}`);
    const contract = snap.contracts.find((x: { id: number }) => x.id === c.id);
    expect(contract).toMatchObject({
      basis: -30,
      fixing_deadline: DEADLINE,
      avg_fixed_price: 79_970,
      multiplier: 5,
      not_fixable_reason: null,
    });
    const viewed = (await h.call('/api/trader/view/contracts', { filter: `id = ${c.id}` }, a.token)).body.data.items[0];
    expect(viewed).toMatchObject({ basis: -30, fixing_deadline: DEADLINE, avg_fixed_price: 79_970, multiplier: 5 });
  });
});

describe('price confirmations', () => {
  it('exist for filled orders only, for the customer who owns them and their tenant only', async () => {
    const c = await newContract(a, 'alice');
    market(a.symbol, 81_000, 1);
    const filled = await fix(a, 'alice', c.id, 1);
    // Nothing left at the market: the next one rests unfilled.
    market(a.symbol, 81_000, 0);
    const res = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: c.id, quantity: 1, price: 80_000 },
      a.pricers.alice!.jwt,
    );
    await service.idle();
    const unfilled = res.body.data.id as number;

    expect((await h.call('/api/trader/view/confirmation', { order_id: filled }, a.token)).status).toBe(200);
    const none = await h.call('/api/pricer/view/confirmation', { order_id: unfilled }, a.pricers.alice!.jwt);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe('该订单尚未成交，没有点价确认单');
    for (const [url, token] of [
      ['/api/pricer/view/confirmation', a.pricers.bob!.jwt],
      ['/api/pricer/view/confirmation', b.pricers.carol!.jwt],
      ['/api/trader/view/confirmation', b.token],
    ] as const) {
      const r = await h.call(url, { order_id: filled }, token);
      expect(r.status, url).toBe(404);
      expect(r.body.error.message).toBe('订单不存在');
    }
    expect((await h.call('/api/trader/view/confirmation', { order_id: 'x' }, a.token)).status).toBe(400);
    await h.call('/api/trader/rpc/cancel-order', { order_id: unfilled }, a.token);
    await service.idle();
  });
});

describe('exposure', () => {
  it('counts fixed and unfixed lots per instrument against the sim account, and shows a mismatch', async () => {
    const t = await setupTenant(h, 'trader-exp', '丙贸易', ['dave']);
    quotes.addInstrument(t.symbol, 10);
    const buy = await newContract(t, 'dave', { total_quantity: 10 });
    const sell = await newContract(t, 'dave', { direction: 'SELL', total_quantity: 8, basis: -100 });
    market(t.symbol, 80_000, 4);
    await fix(t, 'dave', buy.id, 4);
    market(t.symbol, 80_000, 3);
    await fix(t, 'dave', sell.id, 3);
    const ex = (await h.call('/api/trader/view/exposure', {}, t.token)).body.data;
    expect(ex.hedge_source).toBe('sim');
    expect(ex.items).toEqual([
      {
        instrument_id: t.symbol,
        product_name: '铜',
        delivery_month: expect.stringMatching(/^\d{4}-\d{2}$/),
        fixed_buy: 4,
        fixed_sell: 3,
        unfixed_buy: 6,
        unfixed_sell: 5,
        hedge_long: 4,
        hedge_short: 3,
        mismatch: 0,
        // Copper: 5 t a lot, so 4 lots fixed are 20 t.
        multiplier: 5,
        unit: '吨',
      },
    ]);
    // A position on the account that no customer fixed (e.g. opened by hand) is a mismatch.
    await h.db
      .insertInto('sim_orders' as never)
      .values({
        tenant_id: t.tenantId,
        order_ref: 'manual-1',
        symbol: t.symbol,
        direction: 'BUY',
        price_type: 'LIMIT',
        limit_price: 80_000,
        volume_orign: 2,
        volume_traded: 2,
        status: 'FILLED',
        expires_at: new Date(),
        inserted_at: new Date(),
      } as never)
      .execute();
    await h.db
      .insertInto('sim_trades' as never)
      .values({
        trade_id: 'manual-1-1',
        tenant_id: t.tenantId,
        order_ref: 'manual-1',
        volume: 2,
        price: 80_000,
        traded_at: new Date(),
      } as never)
      .execute();
    const after = (await h.call('/api/trader/view/exposure', {}, t.token)).body.data.items[0];
    expect(after).toMatchObject({ hedge_long: 6, hedge_short: 3, mismatch: 2 });
    // Another tenant sees none of it.
    const other = (await h.call('/api/trader/view/exposure', {}, b.token)).body.data;
    expect(other.items).toEqual([]);
  });
});

describe('statements', () => {
  it('streams every confirmation in the range as xlsx (numbers and dates as such) and CSV with BOM', async () => {
    const c = await newContract(a, 'bob', { basis: 200 });
    const contractName = (await h.call('/api/trader/view/contracts', { filter: `id = ${c.id}` }, a.token)).body.data
      .items[0].name as string;
    market(a.symbol, 82_000, 2);
    const orderId = await fix(a, 'bob', c.id, 2);
    const url = `/api/trader/export/fixings?start_date=${FROM}&end_date=${TO}&format=xlsx`;
    const res = await download(url, a.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent(`点价对账单_${FROM}_${TO}.xlsx`)}`,
    );
    const rows = await readWorkbook(res.rawPayload);
    expect(String(rows[0]![0])).toContain('甲贸易');
    expect(rows[1]).toEqual([
      '确认单号',
      '点价时间',
      '客户',
      '合同',
      '品种',
      '期货合约',
      '方向',
      '成交手数',
      '期货成交价',
      '基差',
      '点价价格',
      '合约乘数',
      '金额（元）',
      '订单号',
      '点价方式',
    ]);
    const data = rows.slice(2);
    const mine = data.find((r) => r[13] === orderId)!;
    // 82,000 + 200 = 82,200; × 2 × 5 = 822,000.
    expect(mine.slice(2, 13)).toEqual([
      'bob',
      expect.any(String),
      '铜',
      a.symbol,
      '买入',
      2,
      82_000,
      200,
      82_200,
      5,
      822_000,
    ]);
    expect(mine[1]).toBeInstanceOf(Date);
    const conf = (await h.call('/api/trader/view/confirmation', { order_id: orderId }, a.token)).body.data;
    // The cell holds the Beijing wall-clock time of the fill.
    expect((mine[1] as Date).getTime()).toBe(Math.floor(Date.parse(conf.fixed_at) / 1000) * 1000 + 8 * 3_600_000);
    // Tenant A's statement has every customer's confirmations of the day, and only A's.
    const pricers = new Set(data.map((r) => r[2]));
    expect(pricers).toEqual(new Set(['alice', 'bob']));

    const csv = await download(url.replace('xlsx', 'csv'), a.token);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.payload
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      '确认单号,点价时间,客户,合同,品种,期货合约,方向,成交手数,期货成交价,基差,点价价格,合约乘数,金额（元）,订单号,点价方式',
    );
    const line = lines.find((l) => l.endsWith(`,${orderId},点价`))!;
    expect(line.split(',').slice(6, 13)).toEqual(['买入', '2', '82000', '200', '82200', '5', '822000']);
    // The detail, a blank line, then the summary: 对账汇总, its header, one row a contract, the totals.
    const blank = lines.indexOf('');
    expect(blank).toBe(data.length + 1);
    expect(lines[blank + 1]).toBe('对账汇总');
    expect(lines[blank + 2]).toBe(
      '合同,客户,品种,期货合约,方向,合同总量（手）,合同总量（数量）,已点价（手）,已点价（数量）,未点价（手）,未点价（数量）,单位,点价均价（元/单位）,点价金额（元）,转月/延期费（元）',
    );
    const summaryRow = lines.slice(blank + 3).find((l) => l.startsWith(`${contractName},`))!;
    // 20 lots of copper (× 5 t), 2 fixed at 82,200 (+200 basis): 10 t fixed, 90 t open, 822,000 元.
    expect(summaryRow.split(',').slice(1)).toEqual([
      'bob',
      '铜',
      a.symbol,
      '买入',
      '20',
      '100',
      '2',
      '10',
      '18',
      '90',
      '吨',
      '82200',
      '822000',
      '0',
    ]);
    const totals = lines[lines.length - 1]!.split(',');
    const summaries = lines.slice(blank + 3, -1).length;
    expect(totals[0]).toBe(`合计（${summaries} 个合同）`);
    // Every contract is copper here: tons add up; lots and the amount always do.
    expect(Number(totals[13])).toBe(data.reduce((sum, r) => sum + Number(r[12]), 0));
    expect(Number(totals[7])).toBe(data.reduce((sum, r) => sum + Number(r[7]), 0));
    expect(totals[11]).toBe('吨');

    // The workbook's first sheet is the same summary.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.name).toBe('对账汇总');
    const sheetRows: unknown[][] = [];
    wb.getWorksheet('对账汇总')!.eachRow((r) => sheetRows.push((r.values as unknown[]).slice(1)));
    expect(String(sheetRows[0]![0])).toContain('点价对账单');
    const mineSummary = sheetRows.find((r) => r[0] === contractName)!;
    expect(mineSummary.slice(5, 15)).toEqual([20, 100, 2, 10, 18, 90, '吨', 82_200, 822_000, 0]);
    expect(String(sheetRows[sheetRows.length - 1]![0])).toBe(`合计（${summaries} 个合同）`);
  });

  it('lists in 对账汇总 every contract open in the range, a contract with no fix in it too (issue 41 §5)', async () => {
    const name = '汇总未点价合同';
    await newContract(a, 'bob', { total_quantity: 7, name });
    const res = await download(`/api/trader/export/fixings?start_date=${FROM}&end_date=${TO}&format=xlsx`, a.token);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.getWorksheet('对账汇总')!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const row = rows.find((r) => r[0] === name);
    // 7 lots of copper (× 5 t), nothing fixed: all 35 t still to fix, no amount, no average.
    expect(row?.slice(1, 15)).toEqual(['bob', '铜', a.symbol, '买入', 7, 35, 0, 0, 7, 35, '吨', undefined, 0, 0]);
    // A range before the contract existed does not list it.
    const before = await download(
      '/api/trader/export/fixings?start_date=2020-01-01&end_date=2020-01-31&format=csv',
      a.token,
    );
    expect(before.statusCode).toBe(200);
    expect(before.payload).not.toContain(name);
  });

  it("isolates tenants and customers, and refuses another tenant's customer and bad ranges", async () => {
    const range = `start_date=${FROM}&end_date=${TO}`;
    const only = async (url: string, token: string) => {
      const res = await download(url, token);
      expect(res.statusCode, res.payload.slice(0, 200)).toBe(200);
      return (await readWorkbook(res.rawPayload)).slice(2);
    };
    // A trader filtering one customer, and each customer's own statement.
    const alice = await only(`/api/trader/export/fixings?${range}&pricer_id=${a.pricers.alice!.id}`, a.token);
    expect(alice.length).toBeGreaterThan(0);
    expect(new Set(alice.map((r) => r[2]))).toEqual(new Set(['alice']));
    const bobOwn = await only(`/api/pricer/export/fixings?${range}`, a.pricers.bob!.jwt);
    expect(new Set(bobOwn.map((r) => r[2]))).toEqual(new Set(['bob']));
    // A customer cannot ask for someone else's: pricer_id is ignored.
    const bobAsAlice = await only(
      `/api/pricer/export/fixings?${range}&pricer_id=${a.pricers.alice!.id}`,
      a.pricers.bob!.jwt,
    );
    expect(new Set(bobAsAlice.map((r) => r[2]))).toEqual(new Set(['bob']));
    // Tenant B has no fixings: an empty statement, never A's.
    expect(await only(`/api/trader/export/fixings?${range}`, b.token)).toEqual([]);
    expect(await only(`/api/pricer/export/fixings?${range}`, b.pricers.carol!.jwt)).toEqual([]);
    // A day without fixings is empty too.
    expect(await only('/api/trader/export/fixings?start_date=2020-01-01&end_date=2020-01-31', a.token)).toEqual([]);

    const bad: [string, string, string][] = [
      [`/api/trader/export/fixings?${range}&pricer_id=${b.pricers.carol!.id}`, 'pricer_id', '客户不存在'],
      [`/api/trader/export/fixings?end_date=${TO}`, 'start_date', '请选择开始日期'],
      [`/api/trader/export/fixings?start_date=${FROM}&end_date=2020-01-01`, 'start_date', '开始日期不能晚于结束日期'],
      [`/api/trader/export/fixings?${range}&format=pdf`, 'format', '导出格式应为 xlsx 或 csv'],
    ];
    for (const [url, field, message] of bad) {
      const res = await download(url, a.token);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatchObject({ field, message });
    }
    expect((await download(`/api/trader/export/fixings?${range}`, '')).statusCode).toBe(401);
    expect((await download(`/api/pricer/export/fixings?${range}`, a.token)).statusCode).toBe(401);
  });
});

describe('audit log', () => {
  it("lists the tenant's own entries newest first, 20 a page, filtered by action, actor and day", async () => {
    // More entries than a page holds, whatever ran before: 21 customers created.
    for (let i = 0; i < 21; i++) {
      const res = await h.call(
        '/api/trader/rpc/create-pricer-user',
        { username: `audit${i}`, password: 'pw123' },
        a.token,
      );
      expect(res.status).toBe(200);
    }
    // The tenant's entries as stored, newest first: the view's first page is exactly their first 20.
    const stored = await h.db
      .selectFrom('audit_log')
      .select('id')
      .where('tenant_id', '=', a.tenantId)
      .orderBy('id', 'desc')
      .execute();
    expect(stored.length).toBeGreaterThan(20);
    const page = (await h.call('/api/trader/view/audit-log', { slice_start: 0, slice_end: 20 }, a.token)).body.data;
    expect(page.total_count).toBe(stored.length);
    expect(page.items.map((i: { id: number }) => i.id)).toEqual(stored.slice(0, 20).map((r) => r.id));
    const created = (
      await h.call('/api/trader/view/audit-log', { action: 'create-contract', start_date: FROM, end_date: TO }, a.token)
    ).body.data;
    expect(created.items.length).toBeGreaterThan(0);
    for (const item of created.items) {
      expect(item).toMatchObject({
        action: 'create-contract',
        action_label: '新建合同',
        actor: 'trader-fix-a',
        actor_kind: 'trader',
      });
      expect(JSON.parse(item.payload)).toHaveProperty('fixing_deadline', DEADLINE);
    }
    const byAlice = (await h.call('/api/trader/view/audit-log', { actor: `pricer:${a.pricers.alice!.id}` }, a.token))
      .body.data;
    expect(byAlice.items.length).toBeGreaterThan(0);
    expect(byAlice.items.every((i: { actor_name: string }) => i.actor_name === 'alice')).toBe(true);
    expect(new Set(byAlice.items.map((i: { action: string }) => i.action))).toContain('submit-order');
    // Every action of the page carries its Chinese label (issue 30): no ASCII key left.
    for (const i of page.items) expect(i.action_label, i.action).toMatch(/^[^A-Za-z]+$/);
    // Tenant B sees none of A's.
    const other = (await h.call('/api/trader/view/audit-log', { action: 'create-contract' }, b.token)).body.data;
    expect(other.total_count).toBe(0);
    const old = (await h.call('/api/trader/view/audit-log', { end_date: '2020-01-01' }, a.token)).body.data;
    expect(old.total_count).toBe(0);
    const bad = await h.call('/api/trader/view/audit-log', { start_date: '明天' }, a.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('start_date');
  });
});
