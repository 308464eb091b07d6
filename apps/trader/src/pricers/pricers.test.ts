import { describe, expect, it } from 'vitest';
import { computeUserStats } from './PricersPage';
import { schemaResolver } from '@mantine/form';
import {
  canSubmitCreate,
  createPricerSchema,
  editPricerSchema,
  EMPTY_CREATE_PRICER,
  nextPricerStatus,
  resetPasswordSchema,
  toCreatePricerInput,
  toProfileInput,
} from './pricerForms';

/** The errors the dialog's form shows for `values`, as @mantine/form resolves the schema. */
const errorsOf = (schema: Parameters<typeof schemaResolver>[0], values: unknown) =>
  schemaResolver(schema, { sync: true })(values);

describe('create customer', () => {
  it('requires a username and a password of at least 2 characters', () => {
    expect(errorsOf(createPricerSchema, { username: ' ', password: '', phone: '' })).toEqual({
      username: '用户名不能为空',
      password: '密码不能为空',
    });
    expect(errorsOf(createPricerSchema, { username: '张', password: 'x', phone: '' })).toEqual({
      username: '用户名至少 2 个字符',
      password: '密码至少 2 个字符',
    });
    expect(errorsOf(createPricerSchema, { username: '张三', password: 'xy', phone: '' })).toEqual({});
  });

  it('refuses what the server refuses: too long, odd characters', () => {
    expect(errorsOf(createPricerSchema, { username: 'a'.repeat(33), password: 'xy', phone: '' })).toEqual({
      username: '用户名不能超过 32 个字符',
    });
    expect(errorsOf(createPricerSchema, { username: 'a b', password: 'x'.repeat(129), phone: '' })).toEqual({
      username: '用户名只能包含文字、数字和 _ . @ -',
      password: '密码不能超过 128 个字符',
    });
  });

  it.each([
    ['13800138000', true],
    ['19912345678', true],
    [' 13800138000 ', true],
    ['12800138000', false],
    ['1380013800', false],
    ['138001380001', false],
    ['23800138000', false],
    ['1380013800a', false],
  ])('phone %j valid: %s', (phone, valid) => {
    const errors = errorsOf(createPricerSchema, { username: '张三', password: 'xy', phone });
    expect(errors).toEqual(valid ? {} : { phone: '手机号格式不正确' });
  });

  const blank = { ...EMPTY_CREATE_PRICER };
  it('enables the create button only with username and password', () => {
    expect(canSubmitCreate({ ...blank, username: 'ab', password: '' })).toBe(false);
    expect(canSubmitCreate({ ...blank, username: '  ', password: 'x' })).toBe(false);
    expect(canSubmitCreate({ ...blank, username: 'a', password: 'x' })).toBe(true);
  });

  it('sends the phone, the full name and the contact only when given', () => {
    expect(toCreatePricerInput({ ...blank, username: ' 张三 ', password: 'pw', phone: ' ', full_name: ' ' })).toEqual({
      username: '张三',
      password: 'pw',
    });
    expect(
      toCreatePricerInput({
        ...blank,
        username: '张三',
        password: 'pw',
        phone: '13800138000',
        full_name: ' 江南饲料科技有限公司 ',
        contact_name: '李经理',
      }),
    ).toEqual({
      username: '张三',
      password: 'pw',
      phone: '13800138000',
      full_name: '江南饲料科技有限公司',
      contact_name: '李经理',
    });
    expect(
      errorsOf(createPricerSchema, { ...blank, username: '张三', password: 'xy', full_name: '公'.repeat(101) }),
    ).toEqual({ full_name: '客户全称不能超过 100 个字符' });
  });
});

describe('edit customer', () => {
  const was = {
    user_id: 7,
    full_name: '',
    contact_name: '',
    phone: '',
    confirm_before_fix: true,
    margin_pct: '' as const,
    margin_zero_ok: false,
  };
  it('sends only what changed, and nothing when nothing did', () => {
    expect(toProfileInput(was, was)).toBeNull();
    expect(toProfileInput({ ...was, full_name: ' 甲公司 ', confirm_before_fix: false }, was)).toEqual({
      user_id: 7,
      full_name: '甲公司',
      confirm_before_fix: false,
    });
    expect(toProfileInput(was, { ...was, phone: '13800138000' })).toEqual({ user_id: 7, phone: '' });
  });

  it('sends the customer’s own margin rate, null to go back to the company’s (issue 41)', () => {
    expect(toProfileInput({ ...was, margin_pct: 15 }, was)).toEqual({ user_id: 7, margin_rate: 0.15 });
    expect(toProfileInput(was, { ...was, margin_pct: 15 })).toEqual({ user_id: 7, margin_rate: null });
  });

  it('refuses a bad phone with the server rule', () => {
    expect(errorsOf(editPricerSchema, { ...was, phone: '12345' })).toEqual({ phone: '手机号格式不正确' });
  });
});

describe('reset password', () => {
  it('requires both fields and a match', () => {
    expect(errorsOf(resetPasswordSchema, { new_password: '', confirm: '' })).toEqual({
      new_password: '请输入新密码',
      confirm: '请确认密码',
    });
    expect(errorsOf(resetPasswordSchema, { new_password: 'abc', confirm: 'abd' })).toEqual({
      confirm: '两次输入的密码不一致',
    });
    expect(errorsOf(resetPasswordSchema, { new_password: 'a', confirm: 'a' })).toEqual({
      new_password: '密码至少 2 个字符',
    });
    expect(errorsOf(resetPasswordSchema, { new_password: 'abc', confirm: 'abc' })).toEqual({});
  });
});

describe('customer status', () => {
  it('停用 an active or pending customer, 启用 an inactive one', () => {
    expect(nextPricerStatus('active')).toBe('inactive');
    expect(nextPricerStatus('pending')).toBe('inactive');
    expect(nextPricerStatus('inactive')).toBe('active');
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
