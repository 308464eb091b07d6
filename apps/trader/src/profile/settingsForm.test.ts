import { describe, expect, it } from 'vitest';
import { formFromProfile, toProfileInput, validateSettings, type SettingsForm } from './settingsForm';

const FORM: SettingsForm = {
  company_name: '  华东贸易  ',
  is_sim: false,
  broker_name: 'G 国泰君安',
  futures_account: ' 8800123 ',
  futures_password: '',
};

describe('settings form', () => {
  it('is preloaded from the profile with a blank password; a new company starts simulated', () => {
    expect(
      formFromProfile({
        tenant_id: 3,
        company_name: '演示',
        tq_account_config: { is_sim: false, broker_name: 'B 宝城期货', futures_account: '123' },
      }),
    ).toEqual({
      company_name: '演示',
      is_sim: false,
      broker_name: 'B 宝城期货',
      futures_account: '123',
      futures_password: '',
    });
    expect(formFromProfile(null)).toEqual({
      company_name: '',
      is_sim: true,
      broker_name: '',
      futures_account: '',
      futures_password: '',
    });
  });

  it('requires a trimmed company name, and broker and account only when not simulated', () => {
    expect(validateSettings({ ...FORM, company_name: '   ', broker_name: '', futures_account: ' ' })).toEqual({
      company_name: '请输入公司名称',
      broker_name: '请输入期货公司',
      futures_account: '请输入期货账户',
    });
    expect(validateSettings({ ...FORM, is_sim: true, broker_name: '', futures_account: '' })).toEqual({});
    expect(validateSettings(FORM)).toEqual({});
  });

  it('sends the password only when it is not blank', () => {
    expect(toProfileInput(FORM)).toEqual({
      company_name: '华东贸易',
      tq_account_config: { is_sim: false, broker_name: 'G 国泰君安', futures_account: '8800123' },
    });
    expect(toProfileInput({ ...FORM, futures_password: '   ' }).tq_account_config).not.toHaveProperty(
      'futures_password',
    );
    expect(toProfileInput({ ...FORM, futures_password: 's3cret' }).tq_account_config.futures_password).toBe('s3cret');
  });

  it('sends no broker account for the simulated account', () => {
    expect(toProfileInput({ ...FORM, is_sim: true, futures_password: 'x' })).toEqual({
      company_name: '华东贸易',
      tq_account_config: { is_sim: true, broker_name: '', futures_account: '' },
    });
  });
});
