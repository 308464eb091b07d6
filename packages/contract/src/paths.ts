/**
 * Method and path of every HTTP call, without schemas. routes.ts adds the schemas to these; the
 * apps' clients call by them (`@pfp/contract/paths`), so no schema code reaches a bundle for it.
 */

type Path = { method: 'GET' | 'POST'; path: string };
const paths = <const P extends Record<string, Path>>(p: P) => p;

export const traderPaths = paths({
  mySelf: { method: 'POST', path: '/api/trader/view/my-self' },
  tqsdkStatus: { method: 'GET', path: '/api/trader/view/tqsdk-status' },
  saveProfile: { method: 'POST', path: '/api/trader/rpc/trader-profile' },
  orders: { method: 'POST', path: '/api/trader/view/orders' },
  contracts: { method: 'POST', path: '/api/trader/view/contracts' },
  users: { method: 'POST', path: '/api/trader/view/users' },
  products: { method: 'POST', path: '/api/trader/view/products' },
  instruments: { method: 'POST', path: '/api/trader/view/instruments' },
  cancelOrder: { method: 'POST', path: '/api/trader/rpc/cancel-order' },
  updateContractStatus: { method: 'POST', path: '/api/trader/rpc/update-contract-status' },
  createContract: { method: 'POST', path: '/api/trader/rpc/create-contract' },
  createPricerUser: { method: 'POST', path: '/api/trader/rpc/create-pricer-user' },
  resetPricerPassword: { method: 'POST', path: '/api/trader/rpc/reset-pricer-password' },
  updatePricerStatus: { method: 'POST', path: '/api/trader/rpc/update-pricer-status' },
  confirmation: { method: 'POST', path: '/api/trader/view/confirmation' },
  exposure: { method: 'POST', path: '/api/trader/view/exposure' },
  auditLog: { method: 'POST', path: '/api/trader/view/audit-log' },
  conditionalOrders: { method: 'POST', path: '/api/trader/view/conditional-orders' },
  cancelConditional: { method: 'POST', path: '/api/trader/rpc/cancel-conditional-order' },
  exportFixings: { method: 'GET', path: '/api/trader/export/fixings' },
  // docs/margin.md
  recordFunds: { method: 'POST', path: '/api/trader/rpc/record-funds' },
  setCreditLine: { method: 'POST', path: '/api/trader/rpc/set-credit-line' },
  pricerAccounts: { method: 'POST', path: '/api/trader/view/pricer-accounts' },
  fundsLedger: { method: 'POST', path: '/api/trader/view/funds-ledger' },
  settleLots: { method: 'POST', path: '/api/trader/rpc/settle-lots' },
  marginSettings: { method: 'POST', path: '/api/trader/view/margin-settings' },
  setMarginSettings: { method: 'POST', path: '/api/trader/rpc/set-margin-settings' },
  contractPausePreview: { method: 'POST', path: '/api/trader/view/contract-pause-preview' },
  pricerDeactivatePreview: { method: 'POST', path: '/api/trader/view/pricer-deactivate-preview' },
  unlockPricer: { method: 'POST', path: '/api/trader/rpc/unlock-pricer' },
  exportAuditLog: { method: 'GET', path: '/api/trader/export/audit-log' },
  // issue 32: roll, extension, average pricing (docs/fixing.md)
  rollContract: { method: 'POST', path: '/api/trader/rpc/roll-contract' },
  extendDeadline: { method: 'POST', path: '/api/trader/rpc/extend-deadline' },
  contractSchedule: { method: 'POST', path: '/api/trader/view/contract-schedule' },
  contractHistory: { method: 'POST', path: '/api/trader/view/contract-history' },
  // issue 42 item 3: 转月 as the customer's application (docs/fixing.md)
  rollApplications: { method: 'POST', path: '/api/trader/view/roll-applications' },
  priceRoll: { method: 'POST', path: '/api/trader/rpc/price-roll' },
  rollQuote: { method: 'POST', path: '/api/trader/view/roll-quote' },
  // docs/notifications.md
  notifications: { method: 'POST', path: '/api/trader/view/notifications' },
  markNotificationsRead: { method: 'POST', path: '/api/trader/rpc/mark-notifications-read' },
  webhook: { method: 'POST', path: '/api/trader/view/webhook' },
  setWebhook: { method: 'POST', path: '/api/trader/rpc/set-webhook' },
  webhookDeliveries: { method: 'POST', path: '/api/trader/view/webhook-deliveries' },
  // The customer's legal identity and desk settings (issue 29)
  updatePricerProfile: { method: 'POST', path: '/api/trader/rpc/update-pricer-profile' },
  // 含权报价 (issue 44, docs/pricing.md)
  priceStructure: { method: 'POST', path: '/api/trader/rpc/price-structure' },
});

export const pricerPaths = paths({
  login: { method: 'POST', path: '/api/pricer/rpc/pricer-login' },
  tenantInfo: { method: 'POST', path: '/api/pricer/rpc/get-tenant-info' },
  snapshot: { method: 'POST', path: '/api/pricer/view/my-data-snapshot' },
  myOrders: { method: 'POST', path: '/api/pricer/view/my-orders' },
  submitOrder: { method: 'POST', path: '/api/pricer/rpc/submit-order' },
  cancelOrder: { method: 'POST', path: '/api/pricer/rpc/cancel-order' },
  confirmation: { method: 'POST', path: '/api/pricer/view/confirmation' },
  acknowledgeConfirmation: { method: 'POST', path: '/api/pricer/rpc/acknowledge-confirmation' },
  createConditional: { method: 'POST', path: '/api/pricer/rpc/create-conditional-order' },
  cancelConditional: { method: 'POST', path: '/api/pricer/rpc/cancel-conditional-order' },
  myConditional: { method: 'POST', path: '/api/pricer/view/my-conditional-orders' },
  exportFixings: { method: 'GET', path: '/api/pricer/export/fixings' },
  // docs/margin.md
  myFunds: { method: 'POST', path: '/api/pricer/view/my-funds' },
  // issue 32 (docs/fixing.md)
  contractSchedule: { method: 'POST', path: '/api/pricer/view/contract-schedule' },
  contractHistory: { method: 'POST', path: '/api/pricer/view/contract-history' },
  // issue 42 item 3: 转月 as the customer's application (docs/fixing.md)
  applyRoll: { method: 'POST', path: '/api/pricer/rpc/apply-roll' },
  acceptRoll: { method: 'POST', path: '/api/pricer/rpc/accept-roll' },
  myRollApplications: { method: 'POST', path: '/api/pricer/view/my-roll-applications' },
  rollQuote: { method: 'POST', path: '/api/pricer/view/roll-quote' },
  // docs/notifications.md
  notifications: { method: 'POST', path: '/api/pricer/view/notifications' },
  markNotificationsRead: { method: 'POST', path: '/api/pricer/rpc/mark-notifications-read' },
});

export const marketPaths = paths({
  exchangeList: { method: 'GET', path: '/api/rpc/exchange_list' },
  productList: { method: 'GET', path: '/api/rpc/product_list' },
  futureList: { method: 'GET', path: '/api/rpc/future_list' },
});

export const appPaths = paths({
  config: { method: 'GET', path: '/api/config' },
  health: { method: 'GET', path: '/api/health' },
});
