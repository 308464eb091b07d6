import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditDetails, auditKindLabel } from './auditFormat';

describe('audit log format', () => {
  it('names actions and actors in Chinese, unknown ones as they are', () => {
    expect(auditActionLabel('cancel-order')).toBe('撤单');
    expect(auditActionLabel('expire-contract')).toBe('合同到期');
    expect(auditActionLabel('new-thing')).toBe('new-thing');
    expect(auditActionLabel('create-conditional-order')).toBe('新建条件单');
    expect(auditActionLabel('fill-after-stop')).toBe('撤单前交易所又成交');
    expect(auditKindLabel('system')).toBe('系统');
  });

  it('shows the payload as key: value pairs without passwords', () => {
    expect(auditDetails('{"order_id":12,"reason":"已过点价截止日"}')).toBe('订单号: 12，原因: 已过点价截止日');
    expect(auditDetails('{"username":"a","password":"[redacted]"}')).toBe('用户名: a');
    expect(auditDetails('{"tq_account_config":{"is_sim":true}}')).toBe('交易账户: （模拟交易: 是）');
    // issue 30: a market order reads 市价, not price: 0; codes read in Chinese.
    expect(auditDetails('{"contract_id":3,"quantity":2,"price":0}')).toBe('合同编号: 3，手数: 2，价格: 市价');
    expect(auditDetails('{"contract_id":3,"new_status":"paused","from":"active"}')).toBe(
      '合同编号: 3，新状态: 已暂停，原状态: 执行中/活跃',
    );
    expect(auditDetails('{"unknown_key":1}')).toBe('unknown_key: 1');
    // Names beside ids.
    expect(
      auditDetails('{"contract_id":3,"user_id":5}', { contract_name: '铜2701-pricer1', customer_name: 'pricer1' }),
    ).toBe('合同编号: 3（铜2701-pricer1），客户编号: 5（pricer1）');
    // Times in Beijing, never a UTC ISO string.
    expect(auditDetails('{"expires_at":"2026-03-06T07:00:00.000Z"}')).toBe('有效期: 2026-03-06 15:00:00');
    expect(auditDetails('not json')).toBe('not json');
  });
});
