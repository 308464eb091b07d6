import { zh } from '@pfp/i18n';
import type { CreatePricerInput } from '@pfp/contract';

const e = zh.trader.pricers.errors;

/** SPEC §5: 11 digits, starting 1 then 3–9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const MIN_LENGTH = 2;

export interface CreatePricerForm {
  username: string;
  password: string;
  phone: string;
}

export type CreatePricerErrors = Partial<Record<keyof CreatePricerForm, string>>;

/** SPEC §5 "Create customer". */
export function validateCreatePricer(form: CreatePricerForm): CreatePricerErrors {
  const errors: CreatePricerErrors = {};
  const username = form.username.trim();
  if (!username) errors.username = e.usernameRequired;
  else if ([...username].length < MIN_LENGTH) errors.username = e.usernameTooShort;
  if (!form.password) errors.password = e.passwordRequired;
  else if ([...form.password].length < MIN_LENGTH) errors.password = e.passwordTooShort;
  const phone = form.phone.trim();
  if (phone && !PHONE_PATTERN.test(phone)) errors.phone = e.phoneInvalid;
  return errors;
}

/** The create button stays disabled until both are filled. */
export const canSubmitCreate = (form: CreatePricerForm) => form.username.trim() !== '' && form.password !== '';

export function toCreatePricerInput(form: CreatePricerForm): CreatePricerInput {
  const phone = form.phone.trim();
  return { username: form.username.trim(), password: form.password, ...(phone ? { phone } : {}) };
}

export interface ResetPasswordForm {
  newPassword: string;
  confirm: string;
}

export type ResetPasswordErrors = Partial<Record<keyof ResetPasswordForm, string>>;

/** SPEC §5 "Reset password" (the server also wants at least 2 characters). */
export function validateResetPassword(form: ResetPasswordForm): ResetPasswordErrors {
  const errors: ResetPasswordErrors = {};
  if (!form.newPassword) errors.newPassword = e.newPasswordRequired;
  else if ([...form.newPassword].length < MIN_LENGTH) errors.newPassword = e.passwordTooShort;
  if (!form.confirm) errors.confirm = e.confirmRequired;
  else if (form.newPassword && form.confirm !== form.newPassword) errors.confirm = e.mismatch;
  return errors;
}
