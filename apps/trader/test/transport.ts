import type { traderRoutes } from '@pfp/contract';
import type { TraderTransport } from '../src/shared/api';

type RouteName = keyof typeof traderRoutes;

/** A test's answers to the trader's routes, by route name; each gets the call's input. */
export type RouteAnswers = Partial<Record<RouteName, (input: any) => Promise<unknown>>>;

/**
 * A transport whose calls (and view pages) answer from `answers`, so the capabilities' own calls run
 * over it; a call the test did not answer fails.
 */
export function fakeTransport(answers: RouteAnswers): TraderTransport {
  const call = async (name: RouteName, input: unknown) => {
    const answer = answers[name];
    if (!answer) throw new Error(`no answer for ${name}`);
    return answer(input);
  };
  return { call: Object.assign(call, { page: call }) as unknown as TraderTransport['call'] };
}
