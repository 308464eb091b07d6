/**
 * The one factory of the console's react-query keys (queries and mutations). Each capability names its keys under
 * its own scope, ['trader', scope, …], so invalidating the scope reaches every read of it: ['trader', 'orders'] is
 * the order table's pages and the order stats alike.
 */
export function traderKeys<const S extends string>(scope: S) {
  const all = ['trader', scope] as const;
  return { all, of: <const P extends readonly unknown[]>(...parts: P) => [...all, ...parts] as const };
}
