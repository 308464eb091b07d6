/**
 * Method and path of every HTTP call, without schemas. routes.ts adds the schemas to these; the
 * apps' clients call by them (`@pfp/contract/paths`), so no schema code reaches a bundle for it.
 */

type Path = { method: 'GET' | 'POST'; path: string };
const paths = <const P extends Record<string, Path>>(p: P) => p;

/** The staff roles (issue 42, docs/roles.md): 管理员, 交易员, 风控, 财务, 只读. */
export const STAFF_ROLES = ['admin', 'trader', 'risk', 'finance', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** Reads every staff member may make. */
const ALL = STAFF_ROLES;
/** The audit log and its export: 管理员, 风控, 只读. */
const AUDIT = ['admin', 'risk', 'viewer'] as const;
/** A login's new password, a customer's or an 授权点价人's: the same rule for both (交易员). */
const RESET_PASSWORD = ['trader'] as const;

/**
 * A trader call names the roles that may make it, beside its path: the one place (the server refuses any
 * other caller with a 403, the console hides what a role may not do). A trader path without roles does not
 * compile, and the server refuses to start with a trader route missing here (docs/roles.md).
 */
type StaffPath = Path & { roles: readonly StaffRole[] };
const staffPaths = <const P extends Record<string, StaffPath>>(p: P) => p;

export const traderPaths = staffPaths({
  mySelf: { method: 'POST', path: '/api/trader/view/my-self', roles: ALL },
  tqsdkStatus: { method: 'GET', path: '/api/trader/view/tqsdk-status', roles: ALL },
  saveProfile: { method: 'POST', path: '/api/trader/rpc/trader-profile', roles: ['admin'] },
  orders: { method: 'POST', path: '/api/trader/view/orders', roles: ALL },
  contracts: { method: 'POST', path: '/api/trader/view/contracts', roles: ALL },
  users: { method: 'POST', path: '/api/trader/view/users', roles: ALL },
  products: { method: 'POST', path: '/api/trader/view/products', roles: ALL },
  instruments: { method: 'POST', path: '/api/trader/view/instruments', roles: ALL },
  cancelOrder: { method: 'POST', path: '/api/trader/rpc/cancel-order', roles: ['trader'] },
  updateContractStatus: { method: 'POST', path: '/api/trader/rpc/update-contract-status', roles: ['trader'] },
  createContract: { method: 'POST', path: '/api/trader/rpc/create-contract', roles: ['trader'] },
  createPricerUser: { method: 'POST', path: '/api/trader/rpc/create-pricer-user', roles: ['trader'] },
  resetPricerPassword: {
    method: 'POST',
    path: '/api/trader/rpc/reset-pricer-password',
    roles: RESET_PASSWORD,
  },
  updatePricerStatus: { method: 'POST', path: '/api/trader/rpc/update-pricer-status', roles: ['trader'] },
  confirmation: { method: 'POST', path: '/api/trader/view/confirmation', roles: ALL },
  exposure: { method: 'POST', path: '/api/trader/view/exposure', roles: ALL },
  auditLog: { method: 'POST', path: '/api/trader/view/audit-log', roles: AUDIT },
  conditionalOrders: { method: 'POST', path: '/api/trader/view/conditional-orders', roles: ALL },
  cancelConditional: { method: 'POST', path: '/api/trader/rpc/cancel-conditional-order', roles: ['trader'] },
  exportFixings: { method: 'GET', path: '/api/trader/export/fixings', roles: ALL },
  // docs/margin.md
  recordFunds: { method: 'POST', path: '/api/trader/rpc/record-funds', roles: ['finance'] },
  setCreditLine: { method: 'POST', path: '/api/trader/rpc/set-credit-line', roles: ['risk'] },
  pricerAccounts: { method: 'POST', path: '/api/trader/view/pricer-accounts', roles: ALL },
  fundsLedger: { method: 'POST', path: '/api/trader/view/funds-ledger', roles: ALL },
  settleLots: { method: 'POST', path: '/api/trader/rpc/settle-lots', roles: ['finance'] },
  marginSettings: { method: 'POST', path: '/api/trader/view/margin-settings', roles: ALL },
  setMarginSettings: { method: 'POST', path: '/api/trader/rpc/set-margin-settings', roles: ['risk'] },
  contractPausePreview: { method: 'POST', path: '/api/trader/view/contract-pause-preview', roles: ['trader'] },
  pricerDeactivatePreview: { method: 'POST', path: '/api/trader/view/pricer-deactivate-preview', roles: ['trader'] },
  unlockPricer: { method: 'POST', path: '/api/trader/rpc/unlock-pricer', roles: ['risk'] },
  effectiveMarginRate: { method: 'POST', path: '/api/trader/view/effective-margin-rate', roles: ALL },
  contractValues: { method: 'POST', path: '/api/trader/view/contract-values', roles: ALL },
  exportAuditLog: { method: 'GET', path: '/api/trader/export/audit-log', roles: AUDIT },
  // issue 32: roll, extension, average pricing (docs/fixing.md)
  rollContract: { method: 'POST', path: '/api/trader/rpc/roll-contract', roles: ['trader'] },
  extendDeadline: { method: 'POST', path: '/api/trader/rpc/extend-deadline', roles: ['trader'] },
  contractSchedule: { method: 'POST', path: '/api/trader/view/contract-schedule', roles: ALL },
  contractHistory: { method: 'POST', path: '/api/trader/view/contract-history', roles: ALL },
  // docs/notifications.md
  notifications: { method: 'POST', path: '/api/trader/view/notifications', roles: ALL },
  markNotificationsRead: { method: 'POST', path: '/api/trader/rpc/mark-notifications-read', roles: ALL },
  webhook: { method: 'POST', path: '/api/trader/view/webhook', roles: ['admin'] },
  setWebhook: { method: 'POST', path: '/api/trader/rpc/set-webhook', roles: ['admin'] },
  webhookDeliveries: { method: 'POST', path: '/api/trader/view/webhook-deliveries', roles: ['admin'] },
  testWebhook: { method: 'POST', path: '/api/trader/rpc/test-webhook', roles: ['admin'] },
  // The customer's legal identity and desk settings (issue 29)
  updatePricerProfile: { method: 'POST', path: '/api/trader/rpc/update-pricer-profile', roles: ['trader'] },
  // 含权报价 (issue 44, docs/pricing.md)
  priceStructure: { method: 'POST', path: '/api/trader/rpc/price-structure', roles: ['trader'] },
  // 点价协议 (issue 43, docs/agreement.md): the text is the company's (管理员), the signed paper the desk's (交易员)
  agreements: { method: 'POST', path: '/api/trader/view/agreements', roles: ALL },
  saveAgreement: { method: 'POST', path: '/api/trader/rpc/save-agreement', roles: ['admin'] },
  recordSignedAgreement: { method: 'POST', path: '/api/trader/rpc/record-signed-agreement', roles: ['trader'] },
  // 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): who may fix for a customer is the desk's (交易员)
  authorisedPricers: { method: 'POST', path: '/api/trader/view/authorised-pricers', roles: ALL },
  addAuthorisedPricer: { method: 'POST', path: '/api/trader/rpc/add-authorised-pricer', roles: ['trader', 'admin'] },
  updateAuthorisedPricer: {
    method: 'POST',
    path: '/api/trader/rpc/update-authorised-pricer',
    roles: ['trader', 'admin'],
  },
  setAuthorisedPricerActive: {
    method: 'POST',
    path: '/api/trader/rpc/set-authorised-pricer-active',
    roles: ['trader', 'admin'],
  },
  resetAuthorisedPricerPassword: {
    method: 'POST',
    path: '/api/trader/rpc/reset-authorised-pricer-password',
    roles: RESET_PASSWORD,
  },
  // Fee receivables and the statement (issue 41, docs/statements.md): money is 财务's
  feeReceivables: { method: 'POST', path: '/api/trader/view/fee-receivables', roles: ALL },
  settleFee: { method: 'POST', path: '/api/trader/rpc/settle-fee', roles: ['finance'] },
  statement: { method: 'POST', path: '/api/trader/view/statement', roles: ALL },
  // issue 42 item 3: 转月 as the customer's application (docs/fixing.md)
  rollApplications: { method: 'POST', path: '/api/trader/view/roll-applications', roles: ALL },
  priceRoll: { method: 'POST', path: '/api/trader/rpc/price-roll', roles: ['trader'] },
  rollQuote: { method: 'POST', path: '/api/trader/view/roll-quote', roles: ALL },
  // The auto rule with a spread band: a company setting, the admin's (docs/roles.md)
  rollAutoPricing: { method: 'POST', path: '/api/trader/view/roll-auto-pricing', roles: ALL },
  setRollAutoPricing: { method: 'POST', path: '/api/trader/rpc/set-roll-auto-pricing', roles: ['admin'] },
  // Staff and roles, maker-checker (issue 42, docs/roles.md)
  staff: { method: 'POST', path: '/api/trader/view/staff', roles: ['admin'] },
  createStaff: { method: 'POST', path: '/api/trader/rpc/create-staff', roles: ['admin'] },
  updateStaff: { method: 'POST', path: '/api/trader/rpc/update-staff', roles: ['admin'] },
  approvalPolicy: { method: 'POST', path: '/api/trader/view/approval-policy', roles: ALL },
  setApprovalPolicy: { method: 'POST', path: '/api/trader/rpc/set-approval-policy', roles: ['admin'] },
  approvalRequests: { method: 'POST', path: '/api/trader/view/approval-requests', roles: ALL },
  approveRequest: { method: 'POST', path: '/api/trader/rpc/approve-request', roles: ['risk'] },
  rejectRequest: { method: 'POST', path: '/api/trader/rpc/reject-request', roles: ['risk'] },
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
  myContractValues: { method: 'POST', path: '/api/pricer/view/my-contract-values' },
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
  // 点价协议 (issue 43, docs/agreement.md)
  agreement: { method: 'POST', path: '/api/pricer/view/agreement' },
  acceptAgreement: { method: 'POST', path: '/api/pricer/rpc/accept-agreement' },
  // The statement (issue 41, docs/statements.md)
  statement: { method: 'POST', path: '/api/pricer/view/statement' },
  respondStatement: { method: 'POST', path: '/api/pricer/rpc/respond-statement' },
});

export const marketPaths = paths({
  exchangeList: { method: 'GET', path: '/api/rpc/exchange_list' },
  productList: { method: 'GET', path: '/api/rpc/product_list' },
  futureList: { method: 'GET', path: '/api/rpc/future_list' },
  // The fitted smiles of the volatility page (issue 44, docs/smile.md)
  volatilitySmile: { method: 'GET', path: '/api/rpc/volatility_smile' },
});

export const appPaths = paths({
  config: { method: 'GET', path: '/api/config' },
  health: { method: 'GET', path: '/api/health' },
});
