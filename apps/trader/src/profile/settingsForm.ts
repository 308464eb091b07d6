import { zh } from '@pfp/i18n';
import type { ProfileInput, TraderProfile } from '@pfp/contract';

/** The settings dialog's form (SPEC §3 "Account settings form"). */
export interface SettingsForm {
  company_name: string;
  is_sim: boolean;
  broker_name: string;
  futures_account: string;
  /** Write-only: always blank when the dialog opens. */
  futures_password: string;
}

export type SettingsField = 'company_name' | 'broker_name' | 'futures_account';
export type SettingsErrors = Partial<Record<SettingsField, string>>;

/** Preloaded from the profile; a new company starts on the simulated account. */
export function formFromProfile(profile: TraderProfile | null): SettingsForm {
  const c = profile?.tq_account_config;
  return {
    company_name: profile?.company_name ?? '',
    is_sim: c?.is_sim ?? true,
    broker_name: c?.broker_name ?? '',
    futures_account: c?.futures_account ?? '',
    futures_password: '',
  };
}

/** SPEC §5 "Settings": company name required (trimmed); broker and account when not simulated. */
export function validateSettings(form: SettingsForm): SettingsErrors {
  const e = zh.trader.settings.errors;
  const errors: SettingsErrors = {};
  if (!form.company_name.trim()) errors.company_name = e.companyName;
  if (!form.is_sim) {
    if (!form.broker_name.trim()) errors.broker_name = e.broker;
    if (!form.futures_account.trim()) errors.futures_account = e.futuresAccount;
  }
  return errors;
}

/** The trader-profile payload; the password goes only when it is not blank (blank keeps the stored one). */
export function toProfileInput(form: SettingsForm): ProfileInput {
  const config: ProfileInput['tq_account_config'] = {
    is_sim: form.is_sim,
    broker_name: form.is_sim ? '' : form.broker_name.trim(),
    futures_account: form.is_sim ? '' : form.futures_account.trim(),
  };
  if (!form.is_sim && form.futures_password.trim() !== '') config.futures_password = form.futures_password;
  return { company_name: form.company_name.trim(), tq_account_config: config };
}
