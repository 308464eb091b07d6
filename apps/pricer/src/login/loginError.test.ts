import { describe, expect, it } from 'vitest';
import { loginErrorMessage } from './loginError';

describe('loginErrorMessage', () => {
  it('maps 401 and 404 and keeps other messages', () => {
    expect(loginErrorMessage(new Error('认证失败: 401'))).toBe('用户名或密码错误');
    expect(loginErrorMessage(new Error('HTTP error! status: 404, body: {}'))).toBe('公司代码不存在');
    expect(loginErrorMessage(new Error('网络异常'))).toBe('网络异常');
    expect(loginErrorMessage(Object.assign(new Error('认证失败: 用户名或密码错误'), { status: 401 }))).toBe(
      '用户名或密码错误',
    );
    expect(loginErrorMessage('x')).toBe('登录失败');
  });
});
