import { z } from 'zod';
import {
  acceptAgreementInput,
  agreementsOverview,
  agreementTemplate,
  agreementView,
  recordSignedAgreementInput,
  saveAgreementInput,
  signedAgreement,
} from './agreement';
import {
  addAuthorisedPricerInput,
  authorisedPricer,
  authorisedPricers,
  authorisedPricersInput,
  resetAuthorisedPricerPasswordInput,
  resetAuthorisedPricerPasswordResult,
  setAuthorisedPricerActiveInput,
  updateAuthorisedPricerInput,
} from './authorisedPricers';
import {
  approvalDecision,
  approvalPolicy,
  approvalRequests,
  approvalRequestsInput,
  approveRequestInput,
  createStaffInput,
  pendingApproval,
  rejectRequestInput,
  setApprovalPolicyInput,
  staffList,
  staffMember,
  updateStaffInput,
} from './staff';
import { priceStructureInput, priceStructureResult } from './pricing';
import { volatilitySmile, volatilitySmileQuery } from './smile';
import { appConfig, health } from './app';
import { contract, contractRow, instrumentRow, orderRow, pricerUser, pricerUserRow, productRow } from './entities';
import { exchangeListQuery, futureListQuery, idList, productListQuery } from './market';
import {
  myOrdersRequest,
  order,
  pricerLoginInput,
  pricerLoginResult,
  snapshot,
  submitOrderInput,
  tenantInfo,
  tenantInfoInput,
} from './pricer';
import {
  cancelOrderInput,
  cancelOrderResult,
  createContractInput,
  instrumentsViewRequest,
  profileInput,
  resetPricerPasswordInput,
  resetPricerPasswordResult,
  tqsdkStatus,
  traderProfile,
  updateContractStatusInput,
  updatePricerStatusInput,
  updatePricerStatusResult,
} from './trader';
import { appPaths, marketPaths, pricerPaths, traderPaths } from './paths';
import { contractValues, contractValuesRequest, effectiveMarginRate, effectiveMarginRateInput } from './marginValues';
import {
  contractHistory,
  contractIdInput,
  contractSchedule,
  extendDeadlineInput,
  rollContractInput,
  rollContractResult,
} from './lifecycle';
import {
  applyRollInput,
  priceRollInput,
  rollApplication,
  rollApplicationIdInput,
  rollApplicationsRequest,
  rollAutoPricing,
  rollQuote,
  rollQuoteInput,
  setRollAutoPricingInput,
} from './rollApplications';
import {
  markNotificationsReadInput,
  markNotificationsReadResult,
  notificationsPage,
  notificationsRequest,
  setWebhookInput,
  testWebhookResult,
  webhookDeliveryRow,
  webhookSettings,
} from './notifications';
import { createCustomerInput, pricerProfile, updatePricerProfileInput } from './customers';
import { anyViewPage, viewRequest } from './view';
import {
  conditionalIdInput,
  conditionalOrder,
  conditionalRow,
  conditionalViewRequest,
  createConditionalInput,
  myConditionalRequest,
} from './conditional';
import {
  fundsEntry,
  fundsLedgerRequest,
  marginSettings,
  myFunds,
  pricerAccounts,
  recordFundsInput,
  recordFundsResult,
  setCreditLineInput,
  settleLotsInput,
  settleLotsResult,
  pricerAccount,
} from './margin';
import {
  contractPausePreview,
  contractPausePreviewInput,
  pricerDeactivatePreview,
  pricerDeactivatePreviewInput,
  unlockPricerInput,
  unlockPricerResult,
} from './controls';
import {
  auditExportQuery,
  auditLogRequest,
  auditRow,
  confirmation,
  confirmationInput,
  exposure,
  statementQuery,
} from './fixing';
import {
  feeReceivables,
  feeReceivablesRequest,
  pricerStatementRequest,
  respondStatementInput,
  settleFeeInput,
  settleFeeResult,
  statement,
  traderStatementRequest,
} from './statements';

/** A file download (exports): the answer is the file itself, not an envelope. */
const file = z.instanceof(Uint8Array);

/**
 * Every HTTP call: method, path, what it takes and the `data` of its `{ result: 'ok', data }`.
 * The server registers its routes from these; clients can type a call by its entry.
 */
export interface RouteDef {
  method: 'GET' | 'POST';
  path: string;
  body?: z.ZodType;
  querystring?: z.ZodType;
  response: z.ZodType;
  /**
   * A view route's row (a database view, ungrouped): what `items` hold when no group_by_fields /
   * aggregate_fields are asked. The answer's schema stays the record page (`anyViewPage`), as
   * grouping changes the rows; clients type their pages by it (`RouteRow`), the server ignores it.
   */
  row?: z.ZodType;
  /** What the call answers with 202 when the approval policy holds it for a second person (issue 42). */
  accepted?: z.ZodType;
  /** A trader call's staff roles (paths.ts, docs/roles.md). */
  roles?: readonly string[];
}

const route = <const R extends RouteDef>(r: R) => r;

export const traderRoutes = {
  mySelf: route({ ...traderPaths.mySelf, response: traderProfile }),
  tqsdkStatus: route({ ...traderPaths.tqsdkStatus, response: tqsdkStatus }),
  saveProfile: route({ ...traderPaths.saveProfile, body: profileInput, response: traderProfile }),
  orders: route({ ...traderPaths.orders, body: viewRequest, response: anyViewPage, row: orderRow }),
  contracts: route({ ...traderPaths.contracts, body: viewRequest, response: anyViewPage, row: contractRow }),
  users: route({ ...traderPaths.users, body: viewRequest, response: anyViewPage, row: pricerUserRow }),
  products: route({ ...traderPaths.products, body: viewRequest, response: anyViewPage, row: productRow }),
  instruments: route({
    ...traderPaths.instruments,
    body: instrumentsViewRequest,
    response: anyViewPage,
    row: instrumentRow,
  }),
  cancelOrder: route({ ...traderPaths.cancelOrder, body: cancelOrderInput, response: cancelOrderResult }),
  updateContractStatus: route({
    ...traderPaths.updateContractStatus,
    body: updateContractStatusInput,
    response: contract,
  }),
  createContract: route({
    ...traderPaths.createContract,
    body: createContractInput,
    response: contract,
    accepted: pendingApproval,
  }),
  createPricerUser: route({ ...traderPaths.createPricerUser, body: createCustomerInput, response: pricerUser }),
  resetPricerPassword: route({
    ...traderPaths.resetPricerPassword,
    body: resetPricerPasswordInput,
    response: resetPricerPasswordResult,
  }),
  updatePricerStatus: route({
    ...traderPaths.updatePricerStatus,
    body: updatePricerStatusInput,
    response: updatePricerStatusResult,
    accepted: pendingApproval,
  }),
  // docs/fixing.md
  confirmation: route({ ...traderPaths.confirmation, body: confirmationInput, response: confirmation }),
  exposure: route({ ...traderPaths.exposure, response: exposure }),
  auditLog: route({ ...traderPaths.auditLog, body: auditLogRequest, response: anyViewPage, row: auditRow }),
  // docs/conditional-orders.md
  conditionalOrders: route({
    ...traderPaths.conditionalOrders,
    body: conditionalViewRequest,
    response: anyViewPage,
    row: conditionalRow,
  }),
  cancelConditional: route({ ...traderPaths.cancelConditional, body: conditionalIdInput, response: conditionalOrder }),
  exportFixings: route({ ...traderPaths.exportFixings, querystring: statementQuery, response: file }),
  // docs/margin.md
  recordFunds: route({
    ...traderPaths.recordFunds,
    body: recordFundsInput,
    response: recordFundsResult,
    accepted: pendingApproval,
  }),
  priceStructure: route({ ...traderPaths.priceStructure, body: priceStructureInput, response: priceStructureResult }),
  setCreditLine: route({
    ...traderPaths.setCreditLine,
    body: setCreditLineInput,
    response: pricerAccount,
    accepted: pendingApproval,
  }),
  pricerAccounts: route({ ...traderPaths.pricerAccounts, response: pricerAccounts }),
  fundsLedger: route({ ...traderPaths.fundsLedger, body: fundsLedgerRequest, response: anyViewPage, row: fundsEntry }),
  settleLots: route({
    ...traderPaths.settleLots,
    body: settleLotsInput,
    response: settleLotsResult,
    accepted: pendingApproval,
  }),
  marginSettings: route({ ...traderPaths.marginSettings, response: marginSettings }),
  setMarginSettings: route({ ...traderPaths.setMarginSettings, body: marginSettings, response: marginSettings }),
  // issue 41 (docs/margin.md)
  effectiveMarginRate: route({
    ...traderPaths.effectiveMarginRate,
    body: effectiveMarginRateInput,
    response: effectiveMarginRate,
  }),
  contractValues: route({ ...traderPaths.contractValues, body: contractValuesRequest, response: contractValues }),
  // issue 30: what a pause or a 停用 will stop, read before the trader confirms it
  contractPausePreview: route({
    ...traderPaths.contractPausePreview,
    body: contractPausePreviewInput,
    response: contractPausePreview,
  }),
  pricerDeactivatePreview: route({
    ...traderPaths.pricerDeactivatePreview,
    body: pricerDeactivatePreviewInput,
    response: pricerDeactivatePreview,
  }),
  unlockPricer: route({
    ...traderPaths.unlockPricer,
    body: unlockPricerInput,
    response: unlockPricerResult,
    accepted: pendingApproval,
  }),
  exportAuditLog: route({ ...traderPaths.exportAuditLog, querystring: auditExportQuery, response: file }),
  // issue 32: roll, extension, average pricing (docs/fixing.md)
  rollContract: route({
    ...traderPaths.rollContract,
    body: rollContractInput,
    response: rollContractResult,
    accepted: pendingApproval,
  }),
  extendDeadline: route({ ...traderPaths.extendDeadline, body: extendDeadlineInput, response: contract }),
  contractSchedule: route({ ...traderPaths.contractSchedule, body: contractIdInput, response: contractSchedule }),
  contractHistory: route({ ...traderPaths.contractHistory, body: contractIdInput, response: contractHistory }),
  // issue 42 item 3: 转月 as the customer's application (docs/fixing.md)
  rollApplications: route({
    ...traderPaths.rollApplications,
    body: rollApplicationsRequest,
    response: anyViewPage,
    row: rollApplication,
  }),
  priceRoll: route({ ...traderPaths.priceRoll, body: priceRollInput, response: rollApplication }),
  rollQuote: route({ ...traderPaths.rollQuote, body: rollQuoteInput, response: rollQuote }),
  rollAutoPricing: route({ ...traderPaths.rollAutoPricing, response: rollAutoPricing }),
  setRollAutoPricing: route({
    ...traderPaths.setRollAutoPricing,
    body: setRollAutoPricingInput,
    response: rollAutoPricing,
  }),
  // docs/notifications.md
  notifications: route({ ...traderPaths.notifications, body: notificationsRequest, response: notificationsPage }),
  markNotificationsRead: route({
    ...traderPaths.markNotificationsRead,
    body: markNotificationsReadInput,
    response: markNotificationsReadResult,
  }),
  webhook: route({ ...traderPaths.webhook, response: webhookSettings }),
  setWebhook: route({ ...traderPaths.setWebhook, body: setWebhookInput, response: webhookSettings }),
  testWebhook: route({ ...traderPaths.testWebhook, response: testWebhookResult }),
  webhookDeliveries: route({
    ...traderPaths.webhookDeliveries,
    body: viewRequest,
    response: anyViewPage,
    row: webhookDeliveryRow,
  }),
  // The customer's legal identity and desk settings (issue 29)
  updatePricerProfile: route({
    ...traderPaths.updatePricerProfile,
    body: updatePricerProfileInput,
    response: pricerProfile,
  }),
  // 点价协议 (issue 43, docs/agreement.md)
  agreements: route({ ...traderPaths.agreements, response: agreementsOverview }),
  saveAgreement: route({ ...traderPaths.saveAgreement, body: saveAgreementInput, response: agreementTemplate }),
  recordSignedAgreement: route({
    ...traderPaths.recordSignedAgreement,
    body: recordSignedAgreementInput,
    response: signedAgreement,
  }),
  // 授权点价人 (issue 43 item 4, docs/authorised-pricers.md)
  authorisedPricers: route({
    ...traderPaths.authorisedPricers,
    body: authorisedPricersInput,
    response: authorisedPricers,
  }),
  addAuthorisedPricer: route({
    ...traderPaths.addAuthorisedPricer,
    body: addAuthorisedPricerInput,
    response: authorisedPricer,
  }),
  updateAuthorisedPricer: route({
    ...traderPaths.updateAuthorisedPricer,
    body: updateAuthorisedPricerInput,
    response: authorisedPricer,
  }),
  setAuthorisedPricerActive: route({
    ...traderPaths.setAuthorisedPricerActive,
    body: setAuthorisedPricerActiveInput,
    response: authorisedPricer,
  }),
  resetAuthorisedPricerPassword: route({
    ...traderPaths.resetAuthorisedPricerPassword,
    body: resetAuthorisedPricerPasswordInput,
    response: resetAuthorisedPricerPasswordResult,
  }),
  // Fee receivables and the statement (issue 41, docs/statements.md)
  feeReceivables: route({ ...traderPaths.feeReceivables, body: feeReceivablesRequest, response: feeReceivables }),
  settleFee: route({
    ...traderPaths.settleFee,
    body: settleFeeInput,
    response: settleFeeResult,
    accepted: pendingApproval,
  }),
  statement: route({ ...traderPaths.statement, body: traderStatementRequest, response: statement }),
  // Staff and roles, maker-checker (issue 42, docs/roles.md)
  staff: route({ ...traderPaths.staff, response: staffList }),
  createStaff: route({ ...traderPaths.createStaff, body: createStaffInput, response: staffMember }),
  updateStaff: route({ ...traderPaths.updateStaff, body: updateStaffInput, response: staffMember }),
  approvalPolicy: route({ ...traderPaths.approvalPolicy, response: approvalPolicy }),
  setApprovalPolicy: route({
    ...traderPaths.setApprovalPolicy,
    body: setApprovalPolicyInput,
    response: approvalPolicy,
  }),
  approvalRequests: route({ ...traderPaths.approvalRequests, body: approvalRequestsInput, response: approvalRequests }),
  approveRequest: route({ ...traderPaths.approveRequest, body: approveRequestInput, response: approvalDecision }),
  rejectRequest: route({ ...traderPaths.rejectRequest, body: rejectRequestInput, response: approvalDecision }),
} as const;

export const pricerRoutes = {
  login: route({ ...pricerPaths.login, body: pricerLoginInput, response: pricerLoginResult }),
  tenantInfo: route({ ...pricerPaths.tenantInfo, body: tenantInfoInput, response: tenantInfo }),
  snapshot: route({ ...pricerPaths.snapshot, response: snapshot }),
  myOrders: route({ ...pricerPaths.myOrders, body: myOrdersRequest, response: anyViewPage, row: orderRow }),
  submitOrder: route({ ...pricerPaths.submitOrder, body: submitOrderInput, response: order }),
  cancelOrder: route({ ...pricerPaths.cancelOrder, body: cancelOrderInput, response: cancelOrderResult }),
  // docs/fixing.md
  confirmation: route({ ...pricerPaths.confirmation, body: confirmationInput, response: confirmation }),
  /** The customer acknowledges a confirmation (确认无误); idempotent: the first time is kept (issue 29). */
  acknowledgeConfirmation: route({
    ...pricerPaths.acknowledgeConfirmation,
    body: confirmationInput,
    response: confirmation,
  }),
  // docs/conditional-orders.md
  createConditional: route({
    ...pricerPaths.createConditional,
    body: createConditionalInput,
    response: conditionalOrder,
  }),
  cancelConditional: route({ ...pricerPaths.cancelConditional, body: conditionalIdInput, response: conditionalOrder }),
  myConditional: route({
    ...pricerPaths.myConditional,
    body: myConditionalRequest,
    response: anyViewPage,
    row: conditionalRow,
  }),
  /** Always the customer's own statement (a pricer_id is ignored). */
  exportFixings: route({ ...pricerPaths.exportFixings, querystring: statementQuery, response: file }),
  // docs/margin.md
  myFunds: route({ ...pricerPaths.myFunds, response: myFunds }),
  myContractValues: route({ ...pricerPaths.myContractValues, response: contractValues }),
  // issue 32 (docs/fixing.md)
  contractSchedule: route({ ...pricerPaths.contractSchedule, body: contractIdInput, response: contractSchedule }),
  contractHistory: route({ ...pricerPaths.contractHistory, body: contractIdInput, response: contractHistory }),
  // issue 42 item 3: 转月 as the customer's application (docs/fixing.md)
  applyRoll: route({ ...pricerPaths.applyRoll, body: applyRollInput, response: rollApplication }),
  /** Idempotent: a second accept of an accepted application answers it again, the roll ran once. */
  acceptRoll: route({ ...pricerPaths.acceptRoll, body: rollApplicationIdInput, response: rollApplication }),
  myRollApplications: route({
    ...pricerPaths.myRollApplications,
    body: rollApplicationsRequest,
    response: anyViewPage,
    row: rollApplication,
  }),
  rollQuote: route({ ...pricerPaths.rollQuote, body: rollQuoteInput, response: rollQuote }),
  // docs/notifications.md
  notifications: route({ ...pricerPaths.notifications, body: notificationsRequest, response: notificationsPage }),
  markNotificationsRead: route({
    ...pricerPaths.markNotificationsRead,
    body: markNotificationsReadInput,
    response: markNotificationsReadResult,
  }),
  // 点价协议 (issue 43, docs/agreement.md)
  agreement: route({ ...pricerPaths.agreement, response: agreementView }),
  acceptAgreement: route({ ...pricerPaths.acceptAgreement, body: acceptAgreementInput, response: agreementView }),
  // The statement (issue 41, docs/statements.md): always the customer's own
  statement: route({ ...pricerPaths.statement, body: pricerStatementRequest, response: statement }),
  /** 对账确认 / 有异议: recorded once per content of the statement, audited. */
  respondStatement: route({ ...pricerPaths.respondStatement, body: respondStatementInput, response: statement }),
} as const;

export const marketRoutes = {
  exchangeList: route({ ...marketPaths.exchangeList, querystring: exchangeListQuery, response: idList }),
  productList: route({ ...marketPaths.productList, querystring: productListQuery, response: idList }),
  futureList: route({ ...marketPaths.futureList, querystring: futureListQuery, response: idList }),
  volatilitySmile: route({
    ...marketPaths.volatilitySmile,
    querystring: volatilitySmileQuery,
    response: volatilitySmile,
  }),
} as const;

export const appRoutes = {
  config: route({ ...appPaths.config, response: appConfig }),
  health: route({ ...appPaths.health, response: health }),
} as const;

/** The request body a route takes (as sent) and the `data` it answers (as received). */
export type RouteBody<R extends RouteDef> = R['body'] extends z.ZodType ? z.input<R['body']> : undefined;
export type RouteQuery<R extends RouteDef> = R['querystring'] extends z.ZodType ? z.input<R['querystring']> : undefined;
export type RouteData<R extends RouteDef> = z.input<R['response']>;
/** One row of a view route's (ungrouped) page, as received. */
export type RouteRow<R extends RouteDef> = R extends { row: infer Row extends z.ZodType } ? z.input<Row> : never;
