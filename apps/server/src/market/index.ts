/** Market data: the instrument catalogue and the simulated exchange (ARCHITECTURE §6). */
export * from './catalogue';
export { formatQuoteTime, inSession, tradingDayOf } from './calendar';
export { shanghaiDate } from '../platform/time';
export { americanPrice, black76Price } from './pricing';
export {
  measureQuoteThroughput,
  SimExchange,
  type Quote,
  type SimExchangeOptions,
  type TickListener,
} from './simExchange';
