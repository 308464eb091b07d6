import {
  createCustomerInput,
  resetPricerPasswordInput,
  updatePricerProfileInput,
  type CreateCustomerInput,
  type PricerUserRow,
  type UpdatePricerProfileInput,
  type UpdatePricerStatusInput,
} from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { z } from 'zod';
import { percentToRate, rateToPercent } from '../shared/MarginRateField';

const e = zh.trader.pricers.errors;

/** SPEC §5 "Create customer": the server's own request schema checks the form (one rule, one message). */
export const createPricerSchema = createCustomerInput;
export type CreatePricerValues = {
  username: string;
  password: string;
  phone: string;
  /** 客户全称 and 联系人 (issue 29): optional, printed on confirmations and statements. */
  full_name: string;
  contact_name: string;
  /** The customer's own margin rate in percent, '' for the company's (issue 41); a 0 is confirmed. */
  margin_pct: number | '';
  margin_zero_ok: boolean;
};
export const EMPTY_CREATE_PRICER: CreatePricerValues = {
  username: '',
  password: '',
  phone: '',
  full_name: '',
  contact_name: '',
  margin_pct: '',
  margin_zero_ok: false,
};

/** A customer's rate of 0 must be confirmed (issue 41): the message, or null. */
export const marginZeroProblem = (values: { margin_pct: number | ''; margin_zero_ok: boolean }) =>
  values.margin_pct === 0 && !values.margin_zero_ok ? zh.marginDefaults.zeroConfirmRequired : null;

/** The create button stays disabled until both are filled. */
export const canSubmitCreate = (values: CreatePricerValues) => values.username.trim() !== '' && values.password !== '';

/** Call only on values that passed {@link createPricerSchema}: the phone goes only when given. */
export function toCreatePricerInput(values: CreatePricerValues): CreateCustomerInput {
  const phone = values.phone.trim();
  const fullName = values.full_name.trim();
  const contactName = values.contact_name.trim();
  return {
    username: values.username.trim(),
    password: values.password,
    ...(phone ? { phone } : {}),
    ...(fullName ? { full_name: fullName } : {}),
    ...(contactName ? { contact_name: contactName } : {}),
    ...(values.margin_pct !== '' ? { margin_rate: percentToRate(values.margin_pct) } : {}),
  };
}

/** 编辑客户 (issue 29): identity and the confirm sheet; the server's schema checks it. */
export const editPricerSchema = updatePricerProfileInput;
export type EditPricerValues = {
  user_id: number;
  full_name: string;
  contact_name: string;
  phone: string;
  confirm_before_fix: boolean;
  margin_pct: number | '';
  margin_zero_ok: boolean;
};

export function editValuesOf(user: PricerUserRow): EditPricerValues {
  return {
    user_id: user.id,
    full_name: user.full_name ?? '',
    contact_name: user.contact_name ?? '',
    phone: user.phone ?? '',
    confirm_before_fix: user.confirm_before_fix ?? true,
    margin_pct: user.margin_rate == null ? '' : rateToPercent(user.margin_rate),
    margin_zero_ok: user.margin_rate === 0,
  };
}

/** Only what changed goes (a blank text clears it); null when nothing changed. */
export function toProfileInput(values: EditPricerValues, was: EditPricerValues): UpdatePricerProfileInput | null {
  const input: UpdatePricerProfileInput = { user_id: values.user_id };
  for (const key of ['full_name', 'contact_name', 'phone'] as const) {
    if (values[key].trim() !== was[key].trim()) input[key] = values[key].trim();
  }
  if (values.confirm_before_fix !== was.confirm_before_fix) input.confirm_before_fix = values.confirm_before_fix;
  if (values.margin_pct !== was.margin_pct) input.margin_rate = percentToRate(values.margin_pct);
  return Object.keys(input).length > 1 ? input : null;
}

/** SPEC §5 "Reset password": the server's password rule plus the confirmation. */
export const resetPasswordSchema = resetPricerPasswordInput
  .pick({ new_password: true })
  .extend({ confirm: z.string().min(1, { error: e.confirmRequired }) })
  .refine((v) => v.confirm === '' || v.confirm === v.new_password, { path: ['confirm'], error: e.mismatch });
export type ResetPasswordValues = { new_password: string; confirm: string };
export const EMPTY_RESET_PASSWORD: ResetPasswordValues = { new_password: '', confirm: '' };

/** 停用 an active or pending customer, 启用 an inactive one. */
export const nextPricerStatus = (status: string): UpdatePricerStatusInput['new_status'] =>
  status === 'inactive' ? 'active' : 'inactive';
