/** react-query keys of the console; actions invalidate by these prefixes. */
export const queryKeys = {
  profile: ['trader', 'my-self'] as const,
  tqsdkStatus: ['trader', 'tqsdk-status'] as const,
  orderStats: ['trader', 'orders', 'stats'] as const,
  contractStats: ['trader', 'contracts', 'stats'] as const,
  userStats: ['trader', 'users', 'stats'] as const,
  allUsers: ['trader', 'users', 'all'] as const,
  products: ['trader', 'products'] as const,
  instruments: (productName: string) => ['trader', 'instruments', productName] as const,
};
