import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditDetails, auditKindLabel } from './auditFormat';

describe('audit log format', () => {
  it('names actions and actors in Chinese, unknown ones as they are', () => {
    expect(auditActionLabel('cancel-order')).toBe('撤单');
    expect(auditActionLabel('expire-contract')).toBe('合同到期');
    expect(auditActionLabel('new-thing')).toBe('new-thing');
    expect(auditKindLabel('system')).toBe('系统');
  });

  it('shows the payload as key: value pairs without passwords', () => {
    expect(auditDetails('{"order_id":12,"reason":"已过点价截止日"}')).toBe('order_id: 12，reason: 已过点价截止日');
    expect(auditDetails('{"username":"a","password":"[redacted]"}')).toBe('username: a');
    expect(auditDetails('{"tq":{"is_sim":true}}')).toBe('tq: {"is_sim":true}');
    expect(auditDetails('not json')).toBe('not json');
  });
});
