import { profileInput, type ProfileInput, type TraderProfile } from '@pfp/contract';

/**
 * The settings dialog's form (SPEC §3 "Account settings form"): the trader-profile request's own
 * shape, checked by its own schema (company name; broker from the list and account unless simulated).
 */
export interface SettingsValues {
  company_name: string;
  tq_account_config: {
    is_sim: boolean;
    broker_name: string;
    futures_account: string;
    /** Write-only: always blank when the dialog opens. */
    futures_password: string;
  };
}

export const settingsSchema = profileInput;

/** Preloaded from the profile; a new company starts on the simulated account. */
export function valuesFromProfile(profile: TraderProfile | null): SettingsValues {
  const c = profile?.tq_account_config;
  return {
    company_name: profile?.company_name ?? '',
    tq_account_config: {
      is_sim: c?.is_sim ?? true,
      broker_name: c?.broker_name ?? '',
      futures_account: c?.futures_account ?? '',
      futures_password: '',
    },
  };
}

/** The trader-profile payload; the password goes only when it is not blank (blank keeps the stored one). */
export function toProfileInput(values: SettingsValues): ProfileInput {
  const c = values.tq_account_config;
  const config: ProfileInput['tq_account_config'] = {
    is_sim: c.is_sim,
    broker_name: c.is_sim ? '' : c.broker_name.trim(),
    futures_account: c.is_sim ? '' : c.futures_account.trim(),
  };
  if (!c.is_sim && c.futures_password.trim() !== '') config.futures_password = c.futures_password;
  return { company_name: values.company_name.trim(), tq_account_config: config };
}
