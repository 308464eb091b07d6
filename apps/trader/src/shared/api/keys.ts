/**
 * react-query keys of the console. Reads sit under one prefix per resource, so a change
 * invalidates everything it can affect: ['trader', 'orders'] is the order table's pages and the
 * order stats alike.
 */
export const traderKeys = {
  profile: ['trader', 'my-self'] as const,
  tqsdkStatus: ['trader', 'tqsdk-status'] as const,
  orders: ['trader', 'orders'] as const,
  orderStats: ['trader', 'orders', 'stats'] as const,
  orderTable: ['trader', 'orders', 'table'] as const,
  contracts: ['trader', 'contracts'] as const,
  contractStats: ['trader', 'contracts', 'stats'] as const,
  contractTable: ['trader', 'contracts', 'table'] as const,
  expiringContracts: ['trader', 'contracts', 'expiring'] as const,
  users: ['trader', 'users'] as const,
  userStats: ['trader', 'users', 'stats'] as const,
  userTable: ['trader', 'users', 'table'] as const,
  allUsers: ['trader', 'users', 'all'] as const,
  products: ['trader', 'products'] as const,
  /** What a pause / a 停用 would stop, read when its dialog opens. */
  contractPausePreview: (contractId: number) => ['trader', 'contracts', 'pause-preview', contractId] as const,
  pricerDeactivatePreview: (userId: number) => ['trader', 'users', 'deactivate-preview', userId] as const,
  instruments: (productName: string) => ['trader', 'instruments', productName] as const,
  /** Mutation keys: the rows being changed are read from the running mutations. */
  cancelOrder: ['trader', 'cancel-order'] as const,
  updateContractStatus: ['trader', 'update-contract-status'] as const,
};
