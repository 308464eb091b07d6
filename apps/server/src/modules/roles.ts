import { traderPaths } from '@pfp/contract';

/** Every trader call's staff roles by `METHOD path`, from the route table (packages/contract paths.ts, docs/roles.md). */
const ROLES = new Map<string, readonly string[]>(
  Object.values(traderPaths).map((p) => [`${p.method} ${p.path}`, p.roles] as const),
);

export const traderRoles = (method: string, url: string) => ROLES.get(`${method} ${url}`);
