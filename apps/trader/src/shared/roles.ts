import { traderPaths } from '@pfp/contract/paths';
import { useProfile } from './api';

export type TraderCallName = keyof typeof traderPaths;

/**
 * Whether roles may make a call, by the route table's roles (packages/contract paths.ts, the server's guard):
 * the console shows only what a role may do. No roles yet (no company): the first trader may do everything.
 */
export const can = (roles: readonly string[] | undefined, call: TraderCallName) =>
  !roles || (traderPaths[call].roles as readonly string[]).some((r) => roles.includes(r));

/** `can` for the signed-in staff member. */
export function useCan() {
  const { profile } = useProfile();
  return (call: TraderCallName) => can(profile?.roles, call);
}
