import { quantityUnit } from '../../market/catalogue';
import { PRODUCTS } from '../../market/products';

/**
 * Physical price-fixing contracts are on commodity futures only (issue 29): goods are priced off a
 * future that counts goods. Index and bond futures (and the container freight index) quote points or
 * a face value: no physical quantity, so no contract. Names outside the catalogue count as commodities.
 */
export const FINANCIAL_PRODUCTS: readonly string[] = PRODUCTS.filter((p) => quantityUnit(p.unit) === null).map(
  (p) => p.name,
);

export const isCommodityProduct = (name: string) => !FINANCIAL_PRODUCTS.includes(name);
