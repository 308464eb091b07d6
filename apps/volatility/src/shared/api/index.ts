/**
 * The volatility app's one data layer: the market lists through TanStack Query over the shared
 * HTTP client, the curve view over the shared WebSocket client (see ../curves).
 */
export { baseHttpApi, PEEK_INTERVAL_MS, volatilityApiConfig, volatilityCurveApi } from './clients';
export { useMarketLists } from './marketLists';
export { useSmile } from './smile';
