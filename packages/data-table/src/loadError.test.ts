import { describe, expect, it } from 'vitest';
import { HttpError } from '@pfp/api-client';
import { loadErrorDetail } from './loadError';

describe('loadErrorDetail', () => {
  it("answers the server's Chinese message of an HTTP error, never its transport text", () => {
    const body = JSON.stringify({ result: 'error', error: { code: 'NOT_FOUND', message: '客户不存在' } });
    expect(loadErrorDetail(new HttpError(404, body))).toBe('客户不存在');
    expect(loadErrorDetail(new HttpError(502, '<html>Bad Gateway</html>'))).toBeNull();
  });

  it('keeps a Chinese message and drops an English one', () => {
    expect(loadErrorDetail(new Error('服务器维护中'))).toBe('服务器维护中');
    expect(loadErrorDetail(new TypeError('Failed to fetch'))).toBeNull();
    expect(loadErrorDetail('boom')).toBeNull();
    expect(loadErrorDetail(null)).toBeNull();
  });
});
