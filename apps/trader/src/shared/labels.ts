import { zh } from '@pfp/i18n';

/** BUY / SELL in Chinese, for the order and the contract views. */
export const directionLabel = (direction: string) => zh.trader.common.direction[direction] ?? direction;
