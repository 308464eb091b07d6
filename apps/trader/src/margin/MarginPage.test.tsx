// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PricerAccount } from '@pfp/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDomPolyfills, renderUi } from '../../test/dom';
import { fakeTransport } from '../../test/transport';
import { ApiProvider } from '../shared/api';
import { MarginPage } from './MarginPage';

beforeAll(installDomPolyfills);
afterEach(cleanup);

const account = (a: Partial<PricerAccount>): PricerAccount => ({
  pricer_id: 1,
  pricer_name: 'alice',
  balance: 100_000,
  credit_line: 20_000,
  margin_required: 80_150,
  floating_pnl: 0,
  available: 39_850,
  margin_call: false,
  call_amount: 0,
  ...a,
});

function open() {
  const api = {
    pricerAccounts: vi.fn(async () => ({
      items: [
        account({
          pricer_id: 2,
          pricer_name: 'bob',
          floating_pnl: -50_000,
          available: -10_150,
          margin_call: true,
          call_amount: 10_150,
        }),
        account({}),
      ],
      total_count: 2,
    })),
    fundsLedger: vi.fn(async () => ({ items: [], total_count: 0 })),
    recordFunds: vi.fn(async () => ({ entry: {}, account: account({}) })),
    setCreditLine: vi.fn(async () => account({})),
    // The customer's contracts: the settle dialog offers those with fixed lots not yet settled.
    contracts: vi.fn(async () => ({
      items: [
        { id: 9, name: '沪铜2701-alice', executed_quantity: 5, settled_quantity: 1 },
        { id: 10, name: '沪铜2702-alice', executed_quantity: 2, settled_quantity: 2 },
      ],
      total_count: 2,
    })),
    settleLots: vi.fn(async () => ({})),
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderUi(
    <QueryClientProvider client={client}>
      <ApiProvider transport={fakeTransport(api)}>
        <MarginPage />
      </ApiProvider>
    </QueryClientProvider>,
  );
  return api;
}

describe('MarginPage', () => {
  it('lists margin calls first, highlighted with the amount to add', async () => {
    open();
    const table = await screen.findByTestId('accounts-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('bob');
    expect(rows[0]!.getAttribute('data-margin-call')).toBe('true');
    expect(within(rows[0]!).getByText('追加保证金 10,150.00').textContent).toBe('追加保证金 10,150.00');
    expect(rows[1]!.getAttribute('data-margin-call')).toBeNull();
    expect(within(rows[1]!).getByText('39,850.00').textContent).toBe('39,850.00');
  });

  it('records funds only after a confirmation', async () => {
    const api = open();
    const table = await screen.findByTestId('accounts-table');
    const alice = within(table).getAllByRole('row')[2]!;
    fireEvent.click(within(alice).getByRole('button', { name: '资金入账' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('金额（元）'), { target: { value: '15000' } });
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '追加保证金' } });
    // A deposit names its bank transfer (issue 42): no 下一步 without it.
    expect((within(dialog).getByRole('button', { name: '下一步' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/银行流水号/), { target: { value: 'ICBC-001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    expect((await within(dialog).findByText(/确认为 alice 入金 15,000.00 元/)).textContent).toMatch(
      /确认为 alice 入金 15,000.00 元/,
    );
    expect(api.recordFunds).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认入账' }));
    await waitFor(() =>
      expect(api.recordFunds).toHaveBeenCalledWith({
        pricer_id: 1,
        kind: 'deposit',
        amount: 15_000,
        note: '追加保证金',
        bank_ref: 'ICBC-001',
      }),
    );
  });

  it('an adjustment still being typed ("-") is not a number: no step on, nothing sent', async () => {
    const api = open();
    const table = await screen.findByTestId('accounts-table');
    fireEvent.click(within(within(table).getAllByRole('row')[2]!).getByRole('button', { name: '资金入账' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('combobox', { name: '类型' }));
    // jsdom never ends the dropdown's transition: its options stay hidden to the accessibility tree.
    fireEvent.click(await screen.findByRole('option', { name: '调整', hidden: true }));
    const amount = within(dialog).getByLabelText('金额（元）') as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '-' } });
    // The sign is kept while the number is typed …
    expect(amount.value).toBe('-');
    // … but there is no amount yet: 下一步 waits, and no confirmation can read NaN.
    expect((within(dialog).getByRole('button', { name: '下一步' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '-250.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    expect((await within(dialog).findByText(/调整 -250.50 元/)).textContent).not.toContain('NaN');
    fireEvent.click(within(dialog).getByRole('button', { name: /^确认/ }));
    await waitFor(() =>
      expect(api.recordFunds).toHaveBeenCalledWith({ pricer_id: 1, kind: 'adjust', amount: -250.5, note: '' }),
    );
  });

  it('shows a refused entry’s reason in the dialog, back on the entry with its values', async () => {
    const api = open();
    api.recordFunds.mockRejectedValueOnce(new Error('出金后可用保证金不足'));
    const table = await screen.findByTestId('accounts-table');
    fireEvent.click(within(within(table).getAllByRole('row')[2]!).getByRole('button', { name: '资金入账' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('金额（元）'), { target: { value: '5000' } });
    fireEvent.change(within(dialog).getByLabelText(/银行流水号/), { target: { value: 'ICBC-002' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: '确认入账' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('入账失败：出金后可用保证金不足');
    expect((within(dialog).getByLabelText('金额（元）') as HTMLInputElement).value).toBe('5,000');
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('settles a contract’s fixed lots after a confirmation, no more than not yet settled', async () => {
    const api = open();
    const table = await screen.findByTestId('accounts-table');
    const alice = within(table).getAllByRole('row')[2]!;
    fireEvent.click(within(alice).getByRole('button', { name: '结算' }));
    const dialog = await screen.findByRole('dialog');
    const lots = (await within(dialog).findByLabelText('结算手数 沪铜2701-alice')) as HTMLInputElement;
    expect(lots.value).toBe('4');
    // Its fully settled contract is not offered.
    expect(within(dialog).queryByLabelText('结算手数 沪铜2702-alice')).toBeNull();
    fireEvent.change(lots, { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '结算' }));
    expect((await within(dialog).findByText(/确认结算合同 沪铜2701-alice 的 3 手/)).textContent).toMatch(
      /确认结算合同 沪铜2701-alice 的 3 手/,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: '确认结算' }));
    await waitFor(() => expect(api.settleLots).toHaveBeenCalledWith({ contract_id: 9, quantity: 3, note: '' }));
  });
});
