import { type Locator, type Page } from '@playwright/test';
import { traderCall } from './api';
import { beijingDay, beijingTradingDay, typeDay } from './dates';

/*
 * The trader's set-ups the suites share: a customer with a copper contract made through the API, and a
 * 均价点价 contract made in the console's 新建合同 dialog as a person does.
 */

/**
 * A new customer of the signed-in trader's company (create-pricer-user takes `customer` as it is) and a
 * BUY contract of 10 lots on copper's second listed future, 截止 20 trading days on, no margin (the
 * suites that use it are about something else; docs/margin.md).
 */
export async function newCustomerWithContract<C extends { username: string; password: string }>(
  page: Page,
  customer: C,
): Promise<{ customer: C; pricerId: number; contractId: number }> {
  const user = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', customer);
  const instruments = await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', {
    product_name: '铜',
  });
  const contract = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
    pricer_id: user.id,
    product_name: '铜',
    instrument_id: instruments.items[1]!.symbol,
    direction: 'BUY',
    total_quantity: 10,
    basis: 150,
    fixing_deadline: beijingTradingDay(20),
    margin_rate: 0,
  });
  return { customer, pricerId: user.id, contractId: contract.id };
}

/** A Mantine select of the dialog: opens it and picks the first visible option named `option`. */
async function choose(page: Page, field: Locator, option: string | RegExp) {
  await field.click();
  await page.getByRole('option', { name: option }).filter({ visible: true }).first().click();
}

/**
 * Fills the terms of the console's open 新建合同 dialog for `customer`: copper's first listed future,
 * 买入 `lots` 手, 基差 100, 截止 `deadline`; answers the dialog (the pricing mode is the caller's).
 */
export async function fillContractTerms(page: Page, o: { customer: string; lots: number; deadline: string }) {
  const form = page.getByRole('dialog', { name: '新建合同' });
  await choose(page, form.getByTestId('contract-pricer'), o.customer);
  await choose(page, form.getByTestId('contract-product'), /^铜$/);
  await choose(page, form.getByTestId('contract-instrument'), /^铜\d{4}/);
  await choose(page, form.getByTestId('contract-direction'), '买入');
  await form.getByTestId('contract-quantity').fill(String(o.lots));
  await form.getByTestId('contract-basis').fill('100');
  await typeDay(form.getByTestId('contract-deadline'), o.deadline);
  return form;
}

/** A 均价点价 contract's window in the open dialog, tomorrow to 14 days on, and the contract's name. */
export async function fillAverageWindow(form: Locator, name: string) {
  await typeDay(form.getByTestId('contract-average-start'), beijingDay(1));
  await typeDay(form.getByTestId('contract-average-end'), beijingDay(14));
  await form.getByLabel('合同名称').fill(name);
}
