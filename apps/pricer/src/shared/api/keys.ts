/**
 * The one factory of the customer app's react-query keys (queries and mutations): a scope's keys are its root and
 * what follows it. Everything of a signed-in customer sits under ['pricer', userId]: a submit or cancel invalidates
 * it, a session change drops ['pricer'].
 */
export function keyScope<const R extends readonly unknown[]>(...root: R) {
  return { all: root, of: <const P extends readonly unknown[]>(...parts: P) => [...root, ...parts] as const };
}

export const pricerKeys = {
  ...keyScope('pricer'),
  /** Everything read for the customer. */
  user: (userId: number) => keyScope('pricer', userId).all,
};

/** A capability's reads of the signed-in customer: ['pricer', userId, name, …]. */
export const customerKeys =
  <const S extends string>(name: S) =>
  (userId: number) =>
    keyScope('pricer', userId, name);
