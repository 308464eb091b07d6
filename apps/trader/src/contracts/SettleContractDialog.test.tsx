// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractRow } from '@pfp/contract';
import { installDomPolyfills, renderUi } from '../../test/dom';
import { fakeTransport } from '../../test/transport';
import { ApiProvider } from '../shared/api';
import { SettleContractDialog } from './SettleContractDialog';

beforeAll(installDomPolyfills);
afterEach(cleanup);

/** 5 lots fixed at 80,000 (+150 basis), 1 settled, 10 % margin, 5 吨 a lot. */
const CONTRACT = {
  id: 12,
  name: '铜2701-pricer2',
  pricer_name: 'pricer2',
  status: 'active',
  executed_quantity: 5,
  settled_quantity: 1,
  avg_price: 80_000,
  basis: 150,
  margin_rate: 0.1,
  multiplier: 5,
  unit: '吨',
} as ContractRow;

function open(settleLots: () => Promise<unknown>) {
  const api = { settleLots: vi.fn(settleLots) };
  const onClose = vi.fn();
  renderUi(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApiProvider transport={fakeTransport(api)}>
        <SettleContractDialog contract={CONTRACT} onClose={onClose} />
      </ApiProvider>
    </QueryClientProvider>,
  );
  return { api, onClose };
}

describe('交割结算 from the contract row (issue 31)', () => {
  it('shows the lots in lots and 吨 and the margin released, confirms, and settles what was confirmed', async () => {
    const { api, onClose } = open(async () => ({}));
    // 可结算 (5 fixed − 1 settled), and the quantity's description (all of them, by default)
    expect(screen.getAllByText('4 手（20 吨）')).toHaveLength(2);
    // (80,000 + 150) × 4 × 5 × 0.1
    expect(screen.getByText('结算后释放保证金 160,300.00 元，这些手数不再计入浮动盈亏。')).toBeDefined();
    fireEvent.change(screen.getByLabelText('结算手数'), { target: { value: '2' } });
    expect(await screen.findByText('结算后释放保证金 80,150.00 元，这些手数不再计入浮动盈亏。')).toBeDefined();
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '提货单 A-17' } });
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(
      screen.getByText('确认结算合同 铜2701-pricer2（客户 pricer2）的 2 手（10 吨）？结算记录不可撤销。'),
    ).toBeDefined();
    expect(api.settleLots).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '确认结算' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.settleLots).toHaveBeenCalledWith({ contract_id: 12, quantity: 2, note: '提货单 A-17' });
  });

  it('shows the server’s refusal in the dialog and stays open', async () => {
    const { onClose } = open(async () => {
      throw new Error('结算手数不能超过已点价未结算的 3 手');
    });
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    fireEvent.click(screen.getByRole('button', { name: '确认结算' }));
    expect((await screen.findByRole('alert')).textContent).toContain('结算失败：结算手数不能超过已点价未结算的 3 手');
    expect(onClose).not.toHaveBeenCalled();
  });
});
