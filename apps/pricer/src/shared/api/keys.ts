/**
 * react-query keys of the customer app. Everything of a signed-in customer sits under
 * ['pricer', userId]: a submit or cancel invalidates it, a session change drops ['pricer'].
 */
export const pricerKeys = {
  all: ['pricer'] as const,
  user: (userId: number) => ['pricer', userId] as const,
  snapshot: (userId: number) => ['pricer', userId, 'snapshot'] as const,
  /** Every contract's orders lists (the desk's per contract). */
  allOrders: (userId: number) => ['pricer', userId, 'orders'] as const,
  contractOrders: (userId: number, contractId: number | undefined) => ['pricer', userId, 'orders', contractId] as const,
  /** Every 条件单 list (per contract, and all of them). */
  allConditionals: (userId: number) => ['pricer', userId, 'conditionals'] as const,
  contractConditionals: (userId: number, contractId: number | undefined) =>
    ['pricer', userId, 'conditionals', contractId] as const,
  cancelConditional: ['pricer', 'cancel-conditional'] as const,
  /** Every contract's 条件单 (issue 29). */
  myConditionals: (userId: number) => ['pricer', userId, 'conditionals', 'all'] as const,
  /** The bell: the notifications and the unread count. */
  notifications: (userId: number) => ['pricer', userId, 'notifications'] as const,
  /** The history table's pages and its summary. */
  history: (userId: number) => ['pricer', userId, 'history'] as const,
  /** Public, before any session. */
  tenantInfo: (tenantId: number | null) => ['tenant-info', tenantId] as const,
  demo: ['app-config', 'demo'] as const,
  cancelOrder: ['pricer', 'cancel-order'] as const,
};
