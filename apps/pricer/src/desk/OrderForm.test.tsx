// @vitest-environment jsdom
import { MantineProvider } from '@pfp/mantine';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installDomPolyfills } from '@pfp/ui/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PricerContract, SubmitOrderInput } from '@pfp/contract';
import { OrderForm } from './OrderForm';

beforeAll(installDomPolyfills);

afterEach(() => cleanup());

const contract: PricerContract = {
  id: 3,
  name: '螺纹钢2701-pricer1',
  product_name: '螺纹钢',
  instrument_id: 'SHFE.rb2701',
  instrument_name: '螺纹钢2701',
  price_tick: 1,
  direction: 'BUY',
  total_quantity: 200,
  remaining_quantity: 5,
  executed_quantity: 0,
  frozen_quantity: 0,
  avg_price: 0,
  status: 'active',
  created_at: '2026-11-21T09:11:43.738Z',
  basis: 60,
  fixing_deadline: '2027-01-29',
  avg_fixed_price: null,
  multiplier: 10,
  not_fixable_reason: null,
};

const market = { last_price: 3095.4, price_tick: 1, upper_limit: 3310, lower_limit: 2880 };

function renderForm(onSubmit: (o: SubmitOrderInput) => Promise<void>, c: { contract?: PricerContract } = { contract }) {
  render(
    <MantineProvider>
      <OrderForm contract={c.contract} referencePrice={3095.4} market={market} onSubmit={onSubmit} />
    </MantineProvider>,
  );
  return {
    lots: screen.getByLabelText(/成交数量/) as HTMLInputElement,
    price: screen.getByLabelText(/委托价格/) as HTMLInputElement,
    submit: screen.getByRole('button', { name: '提交订单' }),
  };
}

describe('OrderForm', () => {
  it('refuses more lots than remain and a limit order without a price', () => {
    const { lots, price, submit } = renderForm(vi.fn());
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(lots, { target: { value: '6' } });
    expect(screen.getByText('成交数量不能超过剩余数量（剩余 5 手）').textContent).toBe(
      '成交数量不能超过剩余数量（剩余 5 手）',
    );
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(lots, { target: { value: '5' } });
    expect(screen.queryByText(/成交数量不能超过剩余数量/)).toBeNull();
    fireEvent.blur(price);
    expect(screen.getByText('限价单必须有有效价格').textContent).toBe('限价单必须有有效价格');
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(price, { target: { value: '3100' } });
    expect(submit).toHaveProperty('disabled', false);
  });

  it('says 请选择合同 without a contract', () => {
    const { submit } = renderForm(vi.fn(), {});
    expect(screen.getByRole('alert').textContent).toBe('请选择合同');
    expect(submit).toHaveProperty('disabled', true);
  });

  it('fills the reference price on the tick grid; market clears it and sends price 0', async () => {
    const onSubmit = vi.fn((_o: SubmitOrderInput) => Promise.resolve());
    const { lots, price, submit } = renderForm(onSubmit);
    fireEvent.click(screen.getByRole('button', { name: '填入参考价' }));
    // SPEC §5: two decimals.
    expect(price.value).toBe('¥3,095.00');
    fireEvent.click(screen.getByText('市价'));
    expect(price.value).toBe('');
    expect(price.disabled).toBe(true);
    fireEvent.change(lots, { target: { value: '2' } });
    fireEvent.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ contract_id: 3, quantity: 2, price: 0 }));
    // A successful submit resets the quantity.
    await waitFor(() => expect(lots.value).toBe(''));
  });

  it('refuses a price off the tick grid or outside the limit band before anything is sent', () => {
    const onSubmit = vi.fn((_o: SubmitOrderInput) => Promise.resolve());
    const { lots, price, submit } = renderForm(onSubmit);
    fireEvent.change(lots, { target: { value: '1' } });
    fireEvent.change(price, { target: { value: '3095.5' } });
    expect(screen.getByText('价格不是最小变动价位的整数倍').textContent).toBe('价格不是最小变动价位的整数倍');
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(price, { target: { value: '3400' } });
    expect(screen.getByText('价格超出涨跌停板').textContent).toBe('价格超出涨跌停板');
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.submit(submit.closest('form')!);
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(price, { target: { value: '3300' } });
    expect(screen.queryByText('价格超出涨跌停板')).toBeNull();
    expect(submit).toHaveProperty('disabled', false);
    // The band and the tick are named under the field.
    expect(screen.getByText('最小变动价位 1 · 涨跌停板 ¥2,880.00 – ¥3,310.00').textContent).toBe(
      '最小变动价位 1 · 涨跌停板 ¥2,880.00 – ¥3,310.00',
    );
  });

  it('keeps the values when the submit fails', async () => {
    const onSubmit = vi.fn(() => Promise.reject(new Error('订单提交失败')));
    const { lots, price, submit } = renderForm(onSubmit);
    fireEvent.change(lots, { target: { value: '1' } });
    fireEvent.change(price, { target: { value: '3000' } });
    fireEvent.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ contract_id: 3, quantity: 1, price: 3000 }));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    expect(lots.value).toBe('1');
  });

  it('shows the margin the fixing will hold and the available after it (docs/margin.md)', () => {
    render(
      <MantineProvider>
        <OrderForm
          contract={{ ...contract, margin_rate: 0.1 }}
          referencePrice={3095.4}
          market={market}
          onSubmit={vi.fn()}
          account={{
            pricer_id: 1,
            pricer_name: 'pricer1',
            balance: 10_000,
            credit_line: 0,
            margin_required: 0,
            floating_pnl: 0,
            available: 10_000,
            margin_call: false,
            call_amount: 0,
          }}
        />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('margin-preview')).toBeNull();
    fireEvent.change(screen.getByLabelText(/成交数量/), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText(/委托价格/), { target: { value: '3100' } });
    // (3,100 + 60) × 2 × 10 × 0.1 = 6,320
    expect(screen.getByTestId('margin-preview').textContent).toBe('本次点价占用保证金 ¥6,320.00，点价后可用 ¥3,680.00');
  });
});
