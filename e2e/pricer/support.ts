import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeViolations } from '../common/a11y';
import { openDeskSignedIn } from '../common/desk';

/** The demo tenant and its first pricer (seeded by the server on first start). */
export const TENANT = 1;
export const PRICER = { username: 'pricer1', password: 'pricer123' };

export interface Contract {
  id: number;
  name: string;
  instrument_id: string;
  price_tick: number;
  direction: 'BUY' | 'SELL';
  remaining_quantity: number;
  executed_quantity: number;
  frozen_quantity: number;
  status: string;
}

export interface Order {
  id: number;
  contract_id: number;
  status: string;
  volume_orign: number;
  volume_traded: string;
  trade_price: number;
  limit_price: number;
  /** Futures fill + basis (null before a fill). */
  fixed_price?: number | null;
}

export interface Snapshot {
  contracts: Contract[];
  orders: Order[];
  timestamp: string;
  market_data: Record<
    string,
    { last_price: number | null; price_tick: number; upper_limit: number | null; lower_limit: number | null }
  >;
}

export interface Session {
  token: string;
  user: { user_id: number; username: string; tenant_id: number; company_name: string };
}

// One API login per worker: the server rate-limits logins (10 a minute per account and address).
let cached: Promise<Session> | undefined;

export function apiSession(request: APIRequestContext): Promise<Session> {
  cached ??= (async () => {
    const res = await request.post('/api/pricer/rpc/pricer-login', {
      data: { tenant_id: TENANT, ...PRICER },
    });
    expect(res.status()).toBe(200);
    const { data } = (await res.json()) as { data: { jwt_token: string } & Session['user'] };
    return {
      token: data.jwt_token,
      user: {
        user_id: data.user_id,
        username: data.username,
        tenant_id: data.tenant_id,
        company_name: data.company_name,
      },
    };
  })();
  return cached;
}

/** Puts a session into local storage (as the login page does) and opens `path` (common/desk.ts). */
export async function openSignedIn(page: Page, session: Session, path: string) {
  await openDeskSignedIn(page, session.token, session.user, path);
}

async function post<T>(request: APIRequestContext, token: string, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { data, headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { result: string; data: T; error?: { message: string } };
  expect(res.status(), `${url}: ${body.error?.message ?? ''}`).toBe(200);
  return body.data;
}

export function snapshot(request: APIRequestContext, token: string): Promise<Snapshot> {
  return post<Snapshot>(request, token, '/api/pricer/view/my-data-snapshot', {});
}

export function submitOrder(
  request: APIRequestContext,
  token: string,
  order: { contract_id: number; quantity: number; price: number },
): Promise<Order> {
  return post<Order>(request, token, '/api/pricer/rpc/submit-order', order);
}

export async function myOrders(
  request: APIRequestContext,
  token: string,
  params: Record<string, unknown>,
): Promise<{ items: Order[]; total_count: number }> {
  return post(request, token, '/api/pricer/view/my-orders', { slice_start: 0, slice_end: 1000, ...params });
}

/** Polls the server until the order reaches one of `statuses`. */
export async function waitForOrder(
  request: APIRequestContext,
  token: string,
  orderId: number,
  statuses: string[],
  timeout = 20_000,
): Promise<Order> {
  let found: Order | undefined;
  await expect
    .poll(
      async () => {
        const { items } = await myOrders(request, token, { filter: `id = ${orderId}` });
        found = items[0];
        return found?.status;
      },
      { timeout, message: `order ${orderId} should reach ${statuses.join('/')}` },
    )
    .toMatch(new RegExp(`^(${statuses.join('|')})$`));
  return found!;
}

/**
 * A limit order 3 % on the far side of the market (it rests at the simulated broker instead of
 * filling), sent straight to the server; answers once the broker has it ALIVE.
 */
export async function restingOrder(
  request: APIRequestContext,
  session: Session,
  snap: Snapshot,
  contract: Contract,
): Promise<Order> {
  const order = await submitOrder(request, session.token, {
    contract_id: contract.id,
    quantity: 1,
    price: limitPrice(contract, lastPrice(snap, contract), 0.03, false),
  });
  await waitForOrder(request, session.token, order.id, ['ALIVE']);
  return order;
}

/** Cancels an order straight at the server; answers once it is CANCELLED. */
export async function cancelOrder(request: APIRequestContext, session: Session, orderId: number) {
  const res = await request.post('/api/pricer/rpc/cancel-order', {
    data: { order_id: orderId },
    headers: { Authorization: `Bearer ${session.token}` },
  });
  expect(res.status()).toBe(200);
  return waitForOrder(request, session.token, orderId, ['CANCELLED']);
}

/**
 * Holds the page's cancel requests on their way to the server until `release()`; `restore()`
 * lets them through unheld again.
 */
export async function holdCancels(page: Page) {
  const url = '**/api/pricer/rpc/cancel-order';
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return { release, restore: () => page.unroute(url) };
}

export function roundToTick(price: number, tick: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(tick) - 1e-9));
  return Number((Math.round(price / tick) * tick).toFixed(decimals));
}

/**
 * A limit price `pct` away from the last price: towards the other side of the book when
 * marketable (BUY above, SELL below), away from it when resting. Well inside the ±7% daily limits.
 */
export function limitPrice(contract: Contract, last: number, pct: number, marketable: boolean): number {
  const up = (contract.direction === 'BUY') === marketable;
  return roundToTick(last * (up ? 1 + pct : 1 - pct), contract.price_tick);
}

export function lastPrice(snap: Snapshot, contract: Contract): number {
  const last = snap.market_data[contract.instrument_id]?.last_price;
  expect(last, `last price of ${contract.instrument_id}`).toBeGreaterThan(0);
  return last!;
}

/** An active contract with at least `lots` remaining (the shared server's quantities move). */
export function pickContract(snap: Snapshot, lots = 1, direction?: 'BUY' | 'SELL'): Contract {
  const c = snap.contracts.find(
    (x) => x.status === 'active' && x.remaining_quantity >= lots && (!direction || x.direction === direction),
  );
  expect(c, `an active ${direction ?? ''} contract with ${lots} lots left`).toBeDefined();
  return c!;
}

/** Axe scan: no serious or critical violations. */
export async function expectAccessible(page: Page, label: string) {
  const bad = (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe on ${label}`).toEqual([]);
}

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

/** Saves e2e/artifacts/screenshots/pricer-<name>.png and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `pricer-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** A toast (react-hot-toast renders them with role=status); the same text may be up twice. */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('status').filter({ hasText: text }).first();
}
