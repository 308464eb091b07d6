import { describe, expect, it } from 'vitest';
import {
  countActive,
  dateRangeError,
  describeFilter,
  EMPTY_FILTER,
  historyParams,
  summarise,
  summaryText,
} from './historyFilter';

const contracts = [
  { id: 3, name: '螺纹钢2701-pricer1' },
  { id: 1, name: '铜2701-pricer1' },
];

describe('history filter', () => {
  it('counts and describes the conditions in force', () => {
    expect(countActive(EMPTY_FILTER)).toBe(0);
    expect(describeFilter(EMPTY_FILTER, contracts)).toBe('无');
    const f = { start_date: '2026-11-01', end_date: '', contract_id: '3', status: 'FINISHED' };
    expect(countActive(f)).toBe(3);
    expect(describeFilter(f, contracts)).toBe('开始日期：2026-11-01，合同：螺纹钢2701-pricer1，状态：已完成');
    expect(describeFilter({ ...EMPTY_FILTER, contract_id: '9' }, contracts)).toBe('合同：#9');
  });

  it('sends only the conditions in force (empty and all omitted)', () => {
    expect(historyParams(EMPTY_FILTER)).toEqual({});
    expect(
      historyParams({ start_date: '2026-11-01', end_date: '2026-11-30', contract_id: '3', status: 'all' }),
    ).toEqual({ start_date: '2026-11-01', end_date: '2026-11-30', contract_id: 3 });
    expect(historyParams({ ...EMPTY_FILTER, contract_id: '', status: 'CANCELLED' })).toEqual({ status: 'CANCELLED' });
  });

  it('flags a start date after the end date', () => {
    expect(dateRangeError({ ...EMPTY_FILTER, start_date: '2026-11-02', end_date: '2026-11-01' })).toBe(
      '开始日期不能晚于结束日期',
    );
    expect(dateRangeError({ ...EMPTY_FILTER, start_date: '2026-11-01', end_date: '2026-11-01' })).toBeUndefined();
  });
});

describe('history summary', () => {
  it('adds up orders, ordered and traded lots over the traded-volume groups', () => {
    const s = summarise([
      { volume_traded: '0', count_id: 4, sum_volume_orign: 9 },
      { volume_traded: '2', count_id: 3, sum_volume_orign: 7 },
      { volume_traded: '1500', count_id: 1, sum_volume_orign: 1500 },
    ]);
    expect(s).toEqual({ orders: 8, ordered: 1516, traded: 1506 });
    expect(summaryText(s)).toBe('共 8 笔订单，委托 1,516 手，成交 1,506 手');
    expect(summaryText(summarise([]))).toBe('共 0 笔订单，委托 0 手，成交 0 手');
  });
});
