import { describe, expect, it } from 'vitest';
import { confirmation, statementQuery } from './fixing';
import { createContractInput } from './trader';

describe('fixing terms on the wire', () => {
  const base = {
    pricer_id: 1,
    product_name: '铜',
    instrument_id: 'SHFE.cu2601',
    direction: 'BUY',
    total_quantity: 10,
  };

  it('create-contract requires a basis (sign allowed) and a real deadline day', () => {
    expect(createContractInput.parse({ ...base, basis: -20, fixing_deadline: '2026-02-27' })).toMatchObject({
      basis: -20,
      fixing_deadline: '2026-02-27',
    });
    const issue = (body: object) => createContractInput.safeParse(body).error?.issues[0];
    expect(issue({ ...base, fixing_deadline: '2026-02-27' })).toMatchObject({
      path: ['basis'],
      message: '请输入基差（可为负数）',
    });
    expect(issue({ ...base, basis: 0 })).toMatchObject({ path: ['fixing_deadline'], message: '请选择点价截止日' });
    expect(issue({ ...base, basis: 0, fixing_deadline: '2026-02-30' })?.message).toBe(
      '点价截止日应为有效日期（YYYY-MM-DD）',
    );
  });

  it('a statement takes an ordered range and xlsx or csv', () => {
    expect(statementQuery.parse({ start_date: '2026-01-01', end_date: '2026-01-31' })).toMatchObject({
      format: 'xlsx',
    });
    const range = { start_date: '2026-01-01', end_date: '2026-01-31' };
    expect(statementQuery.parse({ ...range, pricer_id: '' }).pricer_id).toBe(undefined);
    expect(statementQuery.parse({ ...range, pricer_id: '12' }).pricer_id).toBe(12);
    expect(statementQuery.safeParse({ ...range, pricer_id: '0' }).success).toBe(false);
    expect(statementQuery.safeParse({ ...range, pricer_id: '1e3' }).success).toBe(false);
    expect(
      statementQuery.safeParse({ start_date: '2026-02-01', end_date: '2026-01-31' }).error?.issues[0]?.message,
    ).toBe('开始日期不能晚于结束日期');
    expect(statementQuery.safeParse({ start_date: '2026-01-01', end_date: '2026-01-31', format: 'pdf' }).success).toBe(
      false,
    );
  });

  it('a confirmation carries its time as an ISO string on the wire', () => {
    const wire = {
      order_id: 7,
      confirmation_no: 'QR20260105-000007',
      company_name: '甲',
      pricer_id: 1,
      pricer_name: 'alice',
      contract_id: 2,
      contract_name: '铜合同',
      product_name: '铜',
      instrument_id: 'SHFE.cu2601',
      instrument_name: '沪铜2601',
      direction: 'BUY',
      lots: 3,
      futures_price: 80_000,
      basis: -30,
      fixed_price: 79_970,
      multiplier: 5,
      amount: 1_199_550,
      fixed_at: '2026-01-05T02:00:00.000Z',
      ordered_at: '2026-01-05T01:59:00.000Z',
      status: 'FINISHED',
      acknowledged_at: null,
    };
    expect(confirmation.parse(wire).fixed_at).toBeInstanceOf(Date);
  });
});
