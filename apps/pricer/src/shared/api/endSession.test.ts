import { AuthError } from '@pfp/api-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as session from '../session/session';
import { endSession } from './call';

afterEach(() => vi.restoreAllMocks());

describe('a 401 ends the customer session (issue 30)', () => {
  it('as 停用 when the server says account_disabled, else as expired', () => {
    const clear = vi.spyOn(session, 'clearSession').mockImplementation(() => {});
    endSession(
      new AuthError(
        JSON.stringify({ result: 'error', error: { code: 'account_disabled', message: '账户已停用，请联系贸易商' } }),
      ),
    );
    endSession(
      new AuthError(
        JSON.stringify({ result: 'error', error: { code: 'unauthorized', message: '登录已过期，请重新登录' } }),
      ),
    );
    endSession(new AuthError(''));
    expect(clear.mock.calls.map((c) => c[0])).toEqual(['disabled', 'expired', 'expired']);
  });
});
