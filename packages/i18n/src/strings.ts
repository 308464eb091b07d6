/** Every user-visible string of the shell and the apps, in Chinese (SPEC: the UI is in Chinese). One file per area. */
import { app } from './strings/app';
import { notFound } from './strings/notFound';
import { shell } from './strings/shell';
import { trader } from './strings/trader';
import { pricer } from './strings/pricer';
import { volatility } from './strings/volatility';
import { table } from './strings/table';
import { errors } from './strings/errors';
import { fixing } from './strings/fixing';
import { conditional } from './strings/conditional';
import { orders } from './strings/orders';
import { margin } from './strings/margin';
import { confirmFix } from './strings/confirmFix';
import { device } from './strings/device';
import { lockout } from './strings/lockout';
import { lifecycle } from './strings/lifecycle';
import { notifications } from './strings/notifications';
import { customers } from './strings/customers';
import { conditionalAll } from './strings/conditionalAll';
import { dates } from './strings/dates';
import { agreement } from './strings/agreement';
import { statements } from './strings/statements';
import { marginDefaults } from './strings/marginDefaults';
import { roles } from './strings/roles';
import { phone } from './strings/phone';
import { rollApplications } from './strings/rollApplications';
import { rollAutoPricing } from './strings/rollAutoPricing';
import { structurePricing } from './strings/structurePricing';
import { authorisedPricers } from './strings/authorisedPricers';
import { averageBasis } from './strings/averageBasis';
import { smile } from './strings/smile';

export const zh = {
  app,
  notFound,
  shell,
  trader,
  pricer,
  volatility,
  table,
  errors,
  fixing,
  conditional,
  orders,
  margin,
  confirmFix,
  device,
  lockout,
  lifecycle,
  notifications,
  customers,
  conditionalAll,
  dates,
  agreement,
  statements,
  marginDefaults,
  roles,
  phone,
  rollApplications,
  rollAutoPricing,
  structurePricing,
  authorisedPricers,
  averageBasis,
  smile,
} as const;

export type Strings = typeof zh;
