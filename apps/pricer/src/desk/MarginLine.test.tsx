// @vitest-environment jsdom
import { MantineProvider } from '@pfp/mantine';
import { cleanup, render, screen } from '@testing-library/react';
import { installDomPolyfills } from '@pfp/ui/testing';
import type { PricerAccount } from '@pfp/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MarginLine } from './MarginLine';

beforeAll(installDomPolyfills);
afterEach(() => cleanup());

const account = (a: Partial<PricerAccount>): PricerAccount => ({
  pricer_id: 1,
  pricer_name: 'pricer1',
  balance: 0,
  credit_line: 0,
  margin_required: 0,
  floating_pnl: 0,
  available: 0,
  margin_call: false,
  call_amount: 0,
  ...a,
});

const show = (a: PricerAccount | undefined) =>
  render(
    <MantineProvider>
      <MarginLine account={a} />
    </MantineProvider>,
  );

describe('MarginLine', () => {
  it('shows nothing for an account never used', () => {
    show(account({}));
    expect(screen.queryByTestId('margin-line')).toBeNull();
    cleanup();
    show(undefined);
    expect(screen.queryByTestId('margin-line')).toBeNull();
  });

  it('shows the available margin, and a banner with the amount while in a margin call', () => {
    show(account({ balance: 100_000, credit_line: 20_000, margin_required: 80_150, available: 39_850 }));
    expect(screen.getByTestId('margin-available').textContent).toBe('¥39,850.00');
    expect(screen.queryByTestId('margin-call-banner')).toBeNull();
    cleanup();
    show(
      account({
        balance: 100_000,
        credit_line: 20_000,
        margin_required: 80_150,
        floating_pnl: -50_000,
        available: -10_150,
        margin_call: true,
        call_amount: 10_150,
      }),
    );
    expect(screen.getByTestId('margin-call-banner').textContent).toBe(
      '账户处于追加保证金状态，请追加 10,150.00 元后再点价',
    );
  });
});
