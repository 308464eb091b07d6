export { createIdentityProvider, type IdentityProvider, type IdentityProviderOptions } from './provider';
export {
  addTrader,
  findTraderById,
  passwordChangedAt,
  revokeTraderSignIns,
  verifyTrader,
  type AddTraderInput,
  type Trader,
} from './traders';
export type { KeyBox } from './keys';
