// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractPausePreview, ContractRow } from '@pfp/contract';
import { installDomPolyfills, renderUi } from '../../test/dom';
import { fakeTransport } from '../../test/transport';
import { ApiProvider } from '../shared/api';
import { ContractStatusDialog, StatusEffect, type StatusChange } from './ContractStatusDialog';

beforeAll(installDomPolyfills);
afterEach(cleanup);

const CONTRACT = { id: 12, name: '铜2701-pricer1', status: 'active' } as ContractRow;
const PREVIEW: ContractPausePreview = {
  contract_id: 12,
  status: 'active',
  working_orders: 2,
  working_lots: 5,
  waiting_conditionals: 3,
  waiting_conditional_lots: 6,
};

function open(change: StatusChange, preview: Promise<ContractPausePreview>) {
  const api = {
    contractPausePreview: vi.fn(() => preview),
    updateContractStatus: vi.fn(async () => ({ ...CONTRACT, status: change.to })),
  };
  const onClose = vi.fn();
  renderUi(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApiProvider transport={fakeTransport(api)}>
        <ContractStatusDialog change={change} onClose={onClose} />
      </ApiProvider>
    </QueryClientProvider>,
  );
  return { api, onClose };
}

describe('ContractStatusDialog (issue 30: 暂停 says what it stops before it does it)', () => {
  it('shows the counts of the working orders and 条件单, and pauses only once they are read', async () => {
    let answer!: (p: ContractPausePreview) => void;
    const { api, onClose } = open({ contract: CONTRACT, to: 'paused' }, new Promise((resolve) => (answer = resolve)));
    expect(screen.getByRole('dialog', { name: '暂停合同：铜2701-pricer1' }).textContent).toContain(
      '暂停合同：铜2701-pricer1',
    );
    expect(screen.getByText('正在统计该合同的委托和条件单...').textContent).toBe('正在统计该合同的委托和条件单...');
    const confirm = screen.getByRole('button', { name: '确认暂停' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    answer(PREVIEW);
    expect((await screen.findByText('将撤销 2 笔未成交委托，暂停 3 笔条件单')).textContent).toBe(
      '将撤销 2 笔未成交委托，暂停 3 笔条件单',
    );
    expect(screen.getByTestId('contract-status-effect').textContent).toContain('未成交 5 手');
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.contractPausePreview).toHaveBeenCalledWith({ contract_id: 12 });
    expect(api.updateContractStatus).toHaveBeenCalledWith({ contract_id: 12, new_status: 'paused' });
  });

  it('says which 条件单 come back on 激活', async () => {
    open(
      { contract: { ...CONTRACT, status: 'paused' }, to: 'active' },
      Promise.resolve({ ...PREVIEW, status: 'paused' }),
    );
    expect((await screen.findByText('激活后客户可以继续点价，3 笔条件单恢复监控行情')).textContent).toBe(
      '激活后客户可以继续点价，3 笔条件单恢复监控行情',
    );
    expect(screen.getByRole('button', { name: '确认激活' }).tagName).toBe('BUTTON');
  });

  it('a failed count says so, and the pause cannot be confirmed blind', async () => {
    const { api } = open({ contract: CONTRACT, to: 'paused' }, Promise.reject(new Error('服务器内部错误')));
    expect((await screen.findByText(/无法统计该合同的委托和条件单/)).textContent).toMatch(
      /无法统计该合同的委托和条件单/,
    );
    expect((screen.getByRole('button', { name: '确认暂停' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.updateContractStatus).not.toHaveBeenCalled();
  });

  it('the edit dialog’s 已过期 / 已完成 say that fixing and 条件单 stop and the orders stay', () => {
    renderUi(<StatusEffect preview={{ isPending: false, isError: false, error: null, data: PREVIEW }} to="expired" />);
    expect(screen.getByTestId('contract-status-effect').textContent).toBe(
      '改为该状态后客户不能再点价，3 笔条件单不再触发；2 笔未成交委托保留，如需撤销请在订单列表中撤单',
    );
  });
});
