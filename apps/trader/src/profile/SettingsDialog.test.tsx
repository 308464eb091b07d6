// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpError } from '@pfp/api-client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProfileInput, TraderProfile } from '@pfp/contract';
import { installDomPolyfills, renderUi } from '../../test/dom';
import { SettingsDialog } from './SettingsDialog';

beforeAll(installDomPolyfills);
afterEach(cleanup);

const PROFILE: TraderProfile = {
  tenant_id: 7,
  company_name: '华东贸易',
  tq_account_config: { is_sim: false, broker_name: 'G 国泰君安', futures_account: '8800123' },
};

function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function open(profile: TraderProfile | null, onSave: (input: ProfileInput) => Promise<void>) {
  const onClose = vi.fn();
  renderUi(<SettingsDialog opened profile={profile} onClose={onClose} onSave={onSave} />);
  return { onClose };
}

const input = (label: string) => screen.getByLabelText(label, { exact: false }) as HTMLInputElement;

describe('SettingsDialog', () => {
  it('is preloaded from the profile, with a blank password', () => {
    open(PROFILE, vi.fn());
    expect(screen.getByRole('dialog', { name: '系统配置' })).toBeTruthy();
    expect(input('公司名称').value).toBe('华东贸易');
    expect((screen.getByRole('checkbox', { name: /模拟交易/ }) as HTMLInputElement).checked).toBe(false);
    expect(input('期货账户').value).toBe('8800123');
    expect(input('账户密码').value).toBe('');
    expect(input('账户密码').placeholder).toBe('留空则保持不变');
  });

  it('shows the validation messages, and typing clears a field’s error', async () => {
    const onSave = vi.fn(async () => {});
    open(null, onSave);
    fireEvent.click(screen.getByRole('checkbox', { name: /模拟交易/ }));
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('请输入公司名称')).toBeTruthy();
    expect(screen.getByText('请输入期货公司')).toBeTruthy();
    expect(screen.getByText('请输入期货账户')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(input('公司名称'), { target: { value: '华' } });
    expect(screen.queryByText('请输入公司名称')).toBeNull();
    expect(screen.getByText('请输入期货账户')).toBeTruthy();
    fireEvent.change(input('期货账户'), { target: { value: '1' } });
    expect(screen.queryByText('请输入期货账户')).toBeNull();
  });

  it('while saving disables every control and cannot be closed; success toasts, then closes', async () => {
    const save = deferred();
    const onSave = vi.fn(() => save.promise);
    const { onClose } = open(PROFILE, onSave);
    fireEvent.change(input('账户密码'), { target: { value: 'newpass' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));

    const busy = await screen.findByRole('button', { name: '保存中...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(input('公司名称').disabled).toBe(true);
    expect(input('期货账户').disabled).toBe(true);
    expect((screen.getByRole('button', { name: '取消' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(onSave).toHaveBeenCalledWith({
      company_name: '华东贸易',
      tq_account_config: {
        is_sim: false,
        broker_name: 'G 国泰君安',
        futures_account: '8800123',
        futures_password: 'newpass',
      },
    });

    save.resolve();
    expect(await screen.findByText('配置保存成功')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('on failure toasts the server message and stays open', async () => {
    const onSave = vi.fn(() =>
      Promise.reject(
        new HttpError(400, JSON.stringify({ result: 'error', error: { message: '期货公司不在支持列表中' } })),
      ),
    );
    const { onClose } = open(PROFILE, onSave);
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存失败 期货公司不在支持列表中')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: '保存' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('cancel closes and resets the form', () => {
    const { onClose } = open(PROFILE, vi.fn());
    fireEvent.change(input('公司名称'), { target: { value: '别的公司' } });
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(input('公司名称').value).toBe('华东贸易');
  });

  it('hides the broker fields for the simulated account', () => {
    open({ ...PROFILE, tq_account_config: { is_sim: true, broker_name: '', futures_account: '' } }, vi.fn());
    expect(screen.queryByLabelText('期货账户', { exact: false })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: /模拟交易/ }));
    expect(screen.getByLabelText('期货账户', { exact: false })).toBeTruthy();
  });
});
