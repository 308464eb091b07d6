export type {
  Direction,
  GatewayEvent,
  GatewayOrder,
  GatewayOrderState,
  GatewayStatus,
  TradingGateway,
} from './gateway';
export type { Quote, QuoteSource } from './quotes';
export { pgCoordinator, soleCoordinator, type Coordinator, type CoordinatorMessage } from './coordinator';
export { applyAccepted, applyEnded, applyTrade, claimOrder, requestCancel } from './apply';
export type { FillBooked, FillsBooked } from './apply';
export { ORDER_TEXTS, type ClaimedOrder, type TradingPort } from './orderLife';
export { OrderRouter, SIM_KEY, type OrderRouterOptions } from './router';
export { createSimBroker, SimBroker, type SimBrokerOptions } from './simBroker';
export { nextClose, SIM_MESSAGES } from './simRules';
export {
  createTradingService,
  GATEWAY_MESSAGES,
  realGatewayKey,
  type TenantRow,
  type TradingService,
  type TradingServiceOptions,
} from './service';
