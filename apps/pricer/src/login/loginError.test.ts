import { AuthError, HttpError } from '@pfp/api-client';
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

  it('reads the api-client errors the server answers with', () => {
    const body = (code: string, message: string) => JSON.stringify({ result: 'error', error: { code, message } });
    expect(loginErrorMessage(new AuthError(body('UNAUTHORIZED', '用户名或密码错误')))).toBe('用户名或密码错误');
    expect(loginErrorMessage(new HttpError(404, body('NOT_FOUND', '公司代码不存在')))).toBe('公司代码不存在');
    expect(loginErrorMessage(new HttpError(403, body('USER_INACTIVE', '账户已停用')))).toBe('账户已停用');
    expect(loginErrorMessage(new HttpError(429, '{"error":"Too Many Requests"}'))).toBe('登录尝试过于频繁，请稍后再试');
    expect(loginErrorMessage(new HttpError(500, ''))).toBe('登录失败');
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toBe('登录过程中发生异常');
    expect(loginErrorMessage(new Error('登录响应格式错误'))).toBe('登录响应格式错误');
  });
});

it('does not read a status out of an error body', () => {
  const body = JSON.stringify({ result: 'error', error: { code: 'X', message: '第 404 行出错' } });
  expect(loginErrorMessage(new HttpError(400, body))).toBe('第 404 行出错');
});
