import { describe, expect, it } from 'vitest';
import { computeUserStats } from './PricersPage';
import { canSubmitCreate, toCreatePricerInput, validateCreatePricer, validateResetPassword } from './pricerForms';

describe('create customer', () => {
  it('requires a username and a password of at least 2 characters', () => {
    expect(validateCreatePricer({ username: ' ', password: '', phone: '' })).toEqual({
      username: '用户名不能为空',
      password: '密码不能为空',
    });
    expect(validateCreatePricer({ username: '张', password: 'x', phone: '' })).toEqual({
      username: '用户名至少 2 个字符',
      password: '密码至少 2 个字符',
    });
    expect(validateCreatePricer({ username: '张三', password: 'xy', phone: '' })).toEqual({});
  });

  it.each([
    ['13800138000', true],
    ['19912345678', true],
    ['12800138000', false],
    ['1380013800', false],
    ['138001380001', false],
    ['23800138000', false],
    ['1380013800a', false],
  ])('phone %s valid: %s', (phone, valid) => {
    const errors = validateCreatePricer({ username: '张三', password: 'xy', phone });
    expect(errors.phone === undefined).toBe(valid);
    if (!valid) expect(errors.phone).toBe('手机号格式不正确');
  });

  it('enables the create button only with username and password', () => {
    expect(canSubmitCreate({ username: 'ab', password: '', phone: '' })).toBe(false);
    expect(canSubmitCreate({ username: '  ', password: 'x', phone: '' })).toBe(false);
    expect(canSubmitCreate({ username: 'a', password: 'x', phone: '' })).toBe(true);
  });

  it('sends the phone only when given', () => {
    expect(toCreatePricerInput({ username: ' 张三 ', password: 'pw', phone: ' ' })).toEqual({
      username: '张三',
      password: 'pw',
    });
    expect(toCreatePricerInput({ username: '张三', password: 'pw', phone: '13800138000' }).phone).toBe('13800138000');
  });
});

describe('reset password', () => {
  it('requires both fields and a match', () => {
    expect(validateResetPassword({ newPassword: '', confirm: '' })).toEqual({
      newPassword: '请输入新密码',
      confirm: '请确认密码',
    });
    expect(validateResetPassword({ newPassword: 'abc', confirm: 'abd' })).toEqual({ confirm: '两次输入的密码不一致' });
    expect(validateResetPassword({ newPassword: 'abc', confirm: 'abc' })).toEqual({});
  });
});

describe('computeUserStats', () => {
  it('counts customers by status', () => {
    expect(
      computeUserStats([
        { status: 'active', count_id: 5 },
        { status: 'pending', count_id: 2 },
        { status: 'inactive', count_id: 1 },
      ]),
    ).toEqual({ total: 8, active: 5, pending: 2, inactive: 1 });
  });
});
