import { z } from 'zod';
import { appConfig, health } from './app';
import { contract, pricerUser } from './entities';
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
  createPricerInput,
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
import { anyViewPage, viewRequest } from './view';
import {
  conditionalIdInput,
  conditionalOrder,
  conditionalViewRequest,
  createConditionalInput,
  myConditionalRequest,
} from './conditional';
import { auditLogRequest, confirmation, confirmationInput, exposure, statementQuery } from './fixing';

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
}

const route = <const R extends RouteDef>(r: R) => r;

export const traderRoutes = {
  mySelf: route({ method: 'POST', path: '/api/trader/view/my-self', response: traderProfile }),
  tqsdkStatus: route({ method: 'GET', path: '/api/trader/view/tqsdk-status', response: tqsdkStatus }),
  saveProfile: route({
    method: 'POST',
    path: '/api/trader/rpc/trader-profile',
    body: profileInput,
    response: traderProfile,
  }),
  orders: route({ method: 'POST', path: '/api/trader/view/orders', body: viewRequest, response: anyViewPage }),
  contracts: route({ method: 'POST', path: '/api/trader/view/contracts', body: viewRequest, response: anyViewPage }),
  users: route({ method: 'POST', path: '/api/trader/view/users', body: viewRequest, response: anyViewPage }),
  products: route({ method: 'POST', path: '/api/trader/view/products', body: viewRequest, response: anyViewPage }),
  instruments: route({
    method: 'POST',
    path: '/api/trader/view/instruments',
    body: instrumentsViewRequest,
    response: anyViewPage,
  }),
  cancelOrder: route({
    method: 'POST',
    path: '/api/trader/rpc/cancel-order',
    body: cancelOrderInput,
    response: cancelOrderResult,
  }),
  updateContractStatus: route({
    method: 'POST',
    path: '/api/trader/rpc/update-contract-status',
    body: updateContractStatusInput,
    response: contract,
  }),
  createContract: route({
    method: 'POST',
    path: '/api/trader/rpc/create-contract',
    body: createContractInput,
    response: contract,
  }),
  createPricerUser: route({
    method: 'POST',
    path: '/api/trader/rpc/create-pricer-user',
    body: createPricerInput,
    response: pricerUser,
  }),
  resetPricerPassword: route({
    method: 'POST',
    path: '/api/trader/rpc/reset-pricer-password',
    body: resetPricerPasswordInput,
    response: resetPricerPasswordResult,
  }),
  updatePricerStatus: route({
    method: 'POST',
    path: '/api/trader/rpc/update-pricer-status',
    body: updatePricerStatusInput,
    response: updatePricerStatusResult,
  }),
  // docs/fixing.md
  confirmation: route({
    method: 'POST',
    path: '/api/trader/view/confirmation',
    body: confirmationInput,
    response: confirmation,
  }),
  exposure: route({ method: 'POST', path: '/api/trader/view/exposure', response: exposure }),
  auditLog: route({ method: 'POST', path: '/api/trader/view/audit-log', body: auditLogRequest, response: anyViewPage }),
  // docs/conditional-orders.md
  conditionalOrders: route({
    method: 'POST',
    path: '/api/trader/view/conditional-orders',
    body: conditionalViewRequest,
    response: anyViewPage,
  }),
  cancelConditional: route({
    method: 'POST',
    path: '/api/trader/rpc/cancel-conditional-order',
    body: conditionalIdInput,
    response: conditionalOrder,
  }),
  exportFixings: route({
    method: 'GET',
    path: '/api/trader/export/fixings',
    querystring: statementQuery,
    response: file,
  }),
} as const;

export const pricerRoutes = {
  login: route({
    method: 'POST',
    path: '/api/pricer/rpc/pricer-login',
    body: pricerLoginInput,
    response: pricerLoginResult,
  }),
  tenantInfo: route({
    method: 'POST',
    path: '/api/pricer/rpc/get-tenant-info',
    body: tenantInfoInput,
    response: tenantInfo,
  }),
  snapshot: route({ method: 'POST', path: '/api/pricer/view/my-data-snapshot', response: snapshot }),
  myOrders: route({ method: 'POST', path: '/api/pricer/view/my-orders', body: myOrdersRequest, response: anyViewPage }),
  submitOrder: route({ method: 'POST', path: '/api/pricer/rpc/submit-order', body: submitOrderInput, response: order }),
  cancelOrder: route({
    method: 'POST',
    path: '/api/pricer/rpc/cancel-order',
    body: cancelOrderInput,
    response: cancelOrderResult,
  }),
  // docs/fixing.md
  confirmation: route({
    method: 'POST',
    path: '/api/pricer/view/confirmation',
    body: confirmationInput,
    response: confirmation,
  }),
  // docs/conditional-orders.md
  createConditional: route({
    method: 'POST',
    path: '/api/pricer/rpc/create-conditional-order',
    body: createConditionalInput,
    response: conditionalOrder,
  }),
  cancelConditional: route({
    method: 'POST',
    path: '/api/pricer/rpc/cancel-conditional-order',
    body: conditionalIdInput,
    response: conditionalOrder,
  }),
  myConditional: route({
    method: 'POST',
    path: '/api/pricer/view/my-conditional-orders',
    body: myConditionalRequest,
    response: anyViewPage,
  }),
  /** Always the customer's own statement (a pricer_id is ignored). */
  exportFixings: route({
    method: 'GET',
    path: '/api/pricer/export/fixings',
    querystring: statementQuery,
    response: file,
  }),
} as const;

export const marketRoutes = {
  exchangeList: route({
    method: 'GET',
    path: '/api/rpc/exchange_list',
    querystring: exchangeListQuery,
    response: idList,
  }),
  productList: route({ method: 'GET', path: '/api/rpc/product_list', querystring: productListQuery, response: idList }),
  futureList: route({ method: 'GET', path: '/api/rpc/future_list', querystring: futureListQuery, response: idList }),
} as const;

export const appRoutes = {
  config: route({ method: 'GET', path: '/api/config', response: appConfig }),
  health: route({ method: 'GET', path: '/api/health', response: health }),
} as const;

/** The request body a route takes (as sent) and the `data` it answers (as received). */
export type RouteBody<R extends RouteDef> = R['body'] extends z.ZodType ? z.input<R['body']> : undefined;
export type RouteQuery<R extends RouteDef> = R['querystring'] extends z.ZodType ? z.input<R['querystring']> : undefined;
export type RouteData<R extends RouteDef> = z.input<R['response']>;
