import { describe, expect, it } from 'vitest';
import { schemaResolver } from '@mantine/form';
import {
  contractSchema,
  EMPTY_CONTRACT,
  termsProblems,
  toCreateInput,
  withProduct,
  type ContractValues,
} from './contractForm';
import { computeContractStats } from './contractStats';

describe('computeContractStats', () => {
  it('counts by status and rates Σexecuted / Σtotal', () => {
    expect(
      computeContractStats([
        { status: 'active', count_id: 3, sum_total_quantity: 600, sum_executed_quantity: 150 },
        { status: 'paused', count_id: 1, sum_total_quantity: 200, sum_executed_quantity: 0 },
        { status: 'completed', count_id: 2, sum_total_quantity: 200, sum_executed_quantity: 200 },
      ]),
    ).toEqual({ total: 6, active: 3, paused: 1, executionRate: 350 / 1000 });
  });

  it('has a rate of 0 without contracts', () => {
    expect(computeContractStats([]).executionRate).toBe(0);
  });
});

const FILLED: ContractValues = {
  pricer_id: 4,
  product_name: '铜',
  instrument_id: 'SHFE.cu2701',
  direction: 'BUY',
  total_quantity: 120,
  name: '  ',
  status: 'active',
  basis: -20,
  fixing_deadline: '2099-12-31',
  pricing_mode: 'point',
  average_start: '',
  average_end: '',
  average_basis: 'settlement',
  margin_pct: 10,
  margin_touched: false,
  margin_zero_ok: false,
};

/** The errors the dialog shows, as @mantine/form resolves the create-contract schema. */
const errorsOf = schemaResolver(contractSchema, { sync: true });

describe('contract form', () => {
  it('starts active with 0 lots', () => {
    expect(EMPTY_CONTRACT.status).toBe('active');
    expect(EMPTY_CONTRACT.total_quantity).toBe(0);
  });

  it('names every missing field', () => {
    expect(errorsOf(EMPTY_CONTRACT)).toEqual({
      pricer_id: '请选择客户',
      product_name: '请选择品种',
      instrument_id: '请选择期货合约',
      direction: '请选择期货方向',
      total_quantity: '总数量必须大于0',
      basis: '请输入基差（可为负数）',
      fixing_deadline: '请选择点价截止日',
    });
    expect(errorsOf({ ...FILLED, total_quantity: '' }).total_quantity).toBe('总数量必须大于0');
    expect(errorsOf({ ...FILLED, total_quantity: -5 }).total_quantity).toBe('总数量必须大于0');
    expect(errorsOf({ ...FILLED, total_quantity: 1.5 }).total_quantity).toBe('总数量必须是整数');
    expect(errorsOf({ ...FILLED, total_quantity: 1_000_001 }).total_quantity).toBe('总数量不能超过 1,000,000 手');
    expect(errorsOf({ ...FILLED, name: '合'.repeat(101) }).name).toBe('合同名称不能超过 100 个字符');
    expect(errorsOf(FILLED)).toEqual({});
  });

  it('takes the basis as a commercial number (fen, off the futures tick) and checks the deadline against today', () => {
    expect(termsProblems({ ...FILLED, basis: 185 })).toEqual({});
    expect(errorsOf({ ...FILLED, basis: 185 })).toEqual({});
    expect(errorsOf({ ...FILLED, basis: -15.5 })).toEqual({});
    // Refused with a message, never rounded: the form keeps -15.505 and says why it cannot be sent.
    expect(errorsOf({ ...FILLED, basis: -15.505 }).basis).toBe('基差最多两位小数（精确到分）');
    // 2026-01-04 17:00 UTC is already 2026-01-05 in Beijing.
    const now = new Date('2026-01-04T17:00:00Z');
    expect(termsProblems({ ...FILLED, fixing_deadline: '2026-01-04' }, now).fixing_deadline).toBe(
      '点价截止日不能早于今天',
    );
    expect(termsProblems({ ...FILLED, fixing_deadline: '2026-01-05' }, now)).toEqual({});
    // A trading day of the future's exchange (docs/calendar.md), as the server words it.
    expect(termsProblems({ ...FILLED, fixing_deadline: '2026-10-05' }, now).fixing_deadline).toBe(
      '点价截止日 2026-10-05 不是上海期货交易所的交易日（国庆节休市），请选择交易日',
    );
    expect(
      termsProblems({ ...FILLED, instrument_id: 'DCE.m2701', fixing_deadline: '2026-01-10' }, now).fixing_deadline,
    ).toBe('点价截止日 2026-01-10 不是大连商品交易所的交易日（周六），请选择交易日');
  });

  it('resets the futures contract when the product changes', () => {
    expect(withProduct(FILLED, '铝')).toMatchObject({ product_name: '铝', instrument_id: '' });
    expect(withProduct(FILLED, '铜')).toBe(FILLED);
  });

  it('builds the create-contract payload with numbers', () => {
    expect(toCreateInput(FILLED)).toEqual({
      name: '',
      pricer_id: 4,
      product_name: '铜',
      instrument_id: 'SHFE.cu2701',
      direction: 'BUY',
      total_quantity: 120,
      status: 'active',
      basis: -20,
      fixing_deadline: '2099-12-31',
      pricing_mode: 'point',
    });
  });

  it('sends the average window only for an average contract (issue 32)', () => {
    const average = {
      ...FILLED,
      pricing_mode: 'average' as const,
      average_start: '2099-12-01',
      average_end: '2099-12-31',
    };
    expect(errorsOf(average)).toEqual({});
    expect(errorsOf({ ...average, average_start: '2099-13-01' }).average_start).toBe(
      '均价开始日应为有效日期（YYYY-MM-DD）',
    );
    expect(toCreateInput(average)).toMatchObject({
      pricing_mode: 'average',
      average_start: '2099-12-01',
      average_end: '2099-12-31',
      // 均价依据 (issue 43): 结算价 unless the trader chose 成交价.
      average_basis: 'settlement',
    });
    expect(toCreateInput({ ...average, average_basis: 'fills' })).toMatchObject({ average_basis: 'fills' });
    expect(toCreateInput({ ...FILLED, average_start: '2099-12-01' })).not.toHaveProperty('average_start');
    expect(toCreateInput(FILLED)).not.toHaveProperty('average_basis');
  });
});

describe('the contract form’s margin rate (issue 41)', () => {
  it('sends the offered rate as the server resolves it, a typed one as the contract’s own', () => {
    expect(toCreateInput(FILLED)).not.toHaveProperty('margin_rate');
    expect(toCreateInput({ ...FILLED, margin_pct: 12.5, margin_touched: true }).margin_rate).toBe(0.125);
    expect(toCreateInput({ ...FILLED, margin_pct: 0, margin_touched: true, margin_zero_ok: true }).margin_rate).toBe(0);
  });

  it('asks to confirm a typed 0 and to fill an emptied rate', () => {
    expect(termsProblems({ ...FILLED, margin_pct: 0, margin_touched: true })).toEqual({
      margin_zero_ok: '保证金比例为 0，请勾选“确认不收保证金”',
    });
    expect(termsProblems({ ...FILLED, margin_pct: 0, margin_touched: true, margin_zero_ok: true })).toEqual({});
    expect(termsProblems({ ...FILLED, margin_pct: '', margin_touched: true }).margin_pct).toBeDefined();
  });
});
