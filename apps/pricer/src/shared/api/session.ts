import { UnexpectedAnswerError } from '@pfp/api-client';
import type { appRoutes, PricerLoginInput, PricerLoginResult } from '@pfp/contract';
import { appPaths } from '@pfp/contract/paths';
import { zh } from '@pfp/i18n';
import { useMutation, useQuery } from '@tanstack/react-query';
import { publicCall, publicHttp } from './call';
import { keyScope } from './keys';

/** Public, before any session. */
const tenantKeys = keyScope('tenant-info');
const configKeys = keyScope('app-config');

/** The login page's calls (SPEC §7): the company's name, the demo switch and the login. */
export const sessionApi = {
  tenantInfo: (tenantId: number) => publicCall('tenantInfo', { tenant_id: tenantId }),
  /** Whether the demo data is on (GET /api/config): only then is the login prefilled (issue 30). */
  demoOn: () => publicHttp.call<(typeof appRoutes)['config']>(appPaths.config, undefined).then((c) => c?.demo === true),

  /** SPEC §7: result 'ok' with the token and user; any other shape is a login response format error. */
  async login(input: PricerLoginInput): Promise<PricerLoginResult> {
    const answer = await publicCall('login', input).catch((err: unknown) => {
      throw err instanceof UnexpectedAnswerError ? new Error(zh.pricer.loginFormatError) : err;
    });
    if (typeof answer.jwt_token !== 'string' || typeof answer.user_id !== 'number') {
      throw new Error(zh.pricer.loginFormatError);
    }
    return answer;
  },
};

/** The company name on the login page: a minute of reuse while typing. */
export function useTenantInfo(tenantId: number | null) {
  return useQuery({
    queryKey: tenantKeys.of(tenantId),
    queryFn: () => sessionApi.tenantInfo(tenantId!),
    enabled: tenantId !== null,
    staleTime: 60_000,
  });
}

/** Whether the server runs the demo data (the login's prefill): read once per page life. */
export function useDemoOn() {
  return useQuery({ queryKey: configKeys.of('demo'), queryFn: () => sessionApi.demoOn(), staleTime: Infinity });
}

export function useLogin() {
  return useMutation({ mutationFn: (input: PricerLoginInput) => sessionApi.login(input) });
}
