import {
  createPricerInput,
  resetPricerPasswordInput,
  type CreatePricerInput,
  type UpdatePricerStatusInput,
} from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { z } from 'zod';

const e = zh.trader.pricers.errors;

/** SPEC §5 "Create customer": the server's own request schema checks the form (one rule, one message). */
export const createPricerSchema = createPricerInput;
export type CreatePricerValues = { username: string; password: string; phone: string };
export const EMPTY_CREATE_PRICER: CreatePricerValues = { username: '', password: '', phone: '' };

/** The create button stays disabled until both are filled. */
export const canSubmitCreate = (values: CreatePricerValues) => values.username.trim() !== '' && values.password !== '';

/** Call only on values that passed {@link createPricerSchema}: the phone goes only when given. */
export function toCreatePricerInput(values: CreatePricerValues): CreatePricerInput {
  const phone = values.phone.trim();
  return { username: values.username.trim(), password: values.password, ...(phone ? { phone } : {}) };
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
