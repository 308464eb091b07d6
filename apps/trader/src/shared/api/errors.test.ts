import { AuthError, HttpError } from '@pfp/api-client';
import { describe, expect, it } from 'vitest';
import { errorText } from './errors';

describe('errorText', () => {
  it("shows the server's Chinese message", () => {
    const body = JSON.stringify({ result: 'error', error: { code: 'CONFLICT', message: '用户名 k 已存在' } });
    expect(errorText(new HttpError(409, body))).toBe('用户名 k 已存在');
    expect(errorText(new AuthError(JSON.stringify({ error: { message: '访问令牌无效或已过期' } })))).toBe(
      '访问令牌无效或已过期',
    );
  });

  it('never shows the transport text of an answer without a message', () => {
    expect(errorText(new HttpError(502, '<html>Bad Gateway</html>'))).toBe('请求失败（状态码 502）');
    expect(errorText(new TypeError('Failed to fetch'))).toBe('未知错误');
    expect(errorText(new Error('公司信息加载失败'))).toBe('公司信息加载失败');
    expect(errorText('x')).toBe('未知错误');
  });
});
