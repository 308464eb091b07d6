import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import { settingsSchema, toProfileInput, valuesFromProfile, type SettingsValues } from './settingsForm';

const VALUES: SettingsValues = {
  company_name: '  华东贸易  ',
  tq_account_config: {
    is_sim: false,
    broker_name: 'G 国泰君安',
    futures_account: ' 8800123 ',
    futures_password: '',
  },
};
const withConfig = (config: Partial<SettingsValues['tq_account_config']>, rest: Partial<SettingsValues> = {}) => ({
  ...VALUES,
  ...rest,
  tq_account_config: { ...VALUES.tq_account_config, ...config },
});

/** The errors the dialog shows, as @mantine/form resolves the trader-profile schema. */
const errorsOf = schemaResolver(settingsSchema, { sync: true });

describe('settings form', () => {
  it('is preloaded from the profile with a blank password; a new company starts simulated', () => {
    expect(
      valuesFromProfile({
        tenant_id: 3,
        company_name: '演示',
        tq_account_config: { is_sim: false, broker_name: 'B 宝城期货', futures_account: '123' },
      }),
    ).toEqual({
      company_name: '演示',
      tq_account_config: { is_sim: false, broker_name: 'B 宝城期货', futures_account: '123', futures_password: '' },
    });
    expect(valuesFromProfile(null)).toEqual({
      company_name: '',
      tq_account_config: { is_sim: true, broker_name: '', futures_account: '', futures_password: '' },
    });
  });

  it('requires a trimmed company name, and broker and account only when not simulated', () => {
    expect(errorsOf(withConfig({ broker_name: '', futures_account: ' ' }, { company_name: '   ' }))).toEqual({
      company_name: '请输入公司名称',
      'tq_account_config.broker_name': '请输入期货公司',
      'tq_account_config.futures_account': '请输入期货账户',
    });
    expect(errorsOf(withConfig({ is_sim: true, broker_name: '', futures_account: '' }))).toEqual({});
    expect(errorsOf(VALUES)).toEqual({});
  });

  it('takes a broker from the fixed list only', () => {
    expect(errorsOf(withConfig({ broker_name: '某某期货' }))).toEqual({
      'tq_account_config.broker_name': '期货公司不在支持列表中',
    });
  });

  it('sends the password only when it is not blank', () => {
    expect(toProfileInput(VALUES)).toEqual({
      company_name: '华东贸易',
      tq_account_config: { is_sim: false, broker_name: 'G 国泰君安', futures_account: '8800123' },
    });
    expect(toProfileInput(withConfig({ futures_password: '   ' })).tq_account_config).not.toHaveProperty(
      'futures_password',
    );
    expect(toProfileInput(withConfig({ futures_password: 's3cret' })).tq_account_config.futures_password).toBe(
      's3cret',
    );
  });

  it('sends no broker account for the simulated account', () => {
    expect(toProfileInput(withConfig({ is_sim: true, futures_password: 'x' }))).toEqual({
      company_name: '华东贸易',
      tq_account_config: { is_sim: true, broker_name: '', futures_account: '' },
    });
  });
});
