/**
 * The `ha` compose profile used through its gateway (scripts/docker-ha-smoke.sh).
 *
 *   node ha.mjs contract <base> <trader.json> <state.json>   a new customer and contract, made by the
 *                                                            trader; the customer's first fix fills
 *   node ha.mjs fix-again <base> <state.json> <result.json>  the second fix, sent (and retried with the
 *                                                            same client_order_id) from now until it is
 *                                                            answered: every answer's status and
 *                                                            Retry-After recorded
 *   node ha.mjs books <base> <state.json>                    both fixes there, filled, the contract's
 *                                                            lots fixed 2
 *
 * The trader's token comes from `use.mjs trader` (the sign-in in chromium). Any failure exits non-zero.
 */
import { randomBytes } from 'node:crypto';
import { apiCaller, check, sleep, waitFor } from './api.mjs';
import { readFileSync, writeFileSync } from 'node:fs';

const [command, base, ...rest] = process.argv.slice(2);
if (!command || !base) throw new Error('usage: ha.mjs <command> <base url> …');

const call = apiCaller(base, { timeoutMs: 30_000 });

async function order(token, id) {
  const { items } = await call(
    '/api/pricer/view/my-orders',
    { slice_start: 0, slice_end: 10, filter: `id = ${id}` },
    token,
  );
  return items[0];
}

async function filled(token, id) {
  return waitFor(
    `order ${id} fills`,
    async () => {
      const o = await order(token, id);
      if (o && ['CANCELLED', 'REJECTED', 'ERROR'].includes(o.status))
        throw new Error(`order ${id}: ${JSON.stringify(o)}`);
      return o?.status === 'FINISHED' ? o : undefined;
    },
    60_000,
  );
}

/** A weekday 6 weeks ahead (Beijing date): the contract's 点价截止日. */
function deadline() {
  const d = new Date(Date.now() + 8 * 3600_000 + 42 * 86400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

async function contract() {
  const [traderFile, stateFile] = rest;
  const { token: trader } = JSON.parse(readFileSync(traderFile, 'utf8'));
  const tenantId = (await call('/api/trader/view/my-self', {}, trader)).tenant_id;
  const username = `ha${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const user = await call('/api/trader/rpc/create-pricer-user', { username, password }, trader);
  const { items } = await call('/api/trader/view/instruments', { product_name: '铜' }, trader);
  const symbol = items[1]?.symbol ?? items[0]?.symbol;
  check(symbol, `no copper future: ${JSON.stringify(items).slice(0, 200)}`);
  const created = await call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: user.id,
      product_name: '铜',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 150,
      fixing_deadline: deadline(),
      margin_rate: 0,
    },
    trader,
  );
  console.log(`  the trader made customer ${username} and contract ${created.id}: ${symbol}, 10 lots, basis +150`);
  const token = (await call('/api/pricer/rpc/pricer-login', { tenant_id: tenantId, username, password })).jwt_token;
  const agreement = await call('/api/pricer/view/agreement', {}, token);
  if (!agreement.accepted && agreement.version != null) {
    await call('/api/pricer/rpc/accept-agreement', { version: agreement.version }, token);
    console.log(`  ${username} accepted the 点价协议 (version ${agreement.version})`);
  }
  const first = await call(
    '/api/pricer/rpc/submit-order',
    { contract_id: created.id, quantity: 1, price: 0, client_order_id: `ha-first-${randomBytes(6).toString('hex')}` },
    token,
  );
  const o = await filled(token, first.id);
  console.log(`  first fix ${first.id}: ${o.status}, 1 lot at ${o.trade_price}`);
  writeFileSync(stateFile, JSON.stringify({ token, contractId: created.id, firstId: first.id }));
}

/**
 * The second fix, as the desk sends it: one client_order_id, resent after a refusal until it is answered.
 * Started right after the primary's container is killed, so its first tries meet no primary.
 */
async function fixAgain() {
  const [stateFile, resultFile] = rest;
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  const body = {
    contract_id: state.contractId,
    quantity: 1,
    price: 0,
    client_order_id: `ha-second-${randomBytes(6).toString('hex')}`,
  };
  const t0 = Date.now();
  const answers = [];
  for (;;) {
    check(Date.now() - t0 < 120_000, `the second fix not answered in 120 s: ${JSON.stringify(answers.slice(-5))}`);
    const sent = Date.now();
    let status;
    let retryAfter = null;
    let text = '';
    try {
      const res = await fetch(`${base}/api/pricer/rpc/submit-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${state.token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      text = await res.text();
    } catch (error) {
      status = `no answer (${error.name})`;
    }
    answers.push({
      at: (sent - t0) / 1000,
      took: (Date.now() - sent) / 1000,
      status,
      retryAfter,
      text: text.slice(0, 120),
    });
    if (status === 200) {
      const json = JSON.parse(text);
      check(json.result === 'ok', `second fix: ${text.slice(0, 200)}`);
      state.secondId = json.data.id;
      break;
    }
    await sleep(250);
  }
  const answeredAfter = (Date.now() - t0) / 1000;
  const refused = answers.filter((a) => a.status !== 200);
  const counts = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  console.log(
    `  second fix ${state.secondId} answered ${answeredAfter.toFixed(1)} s after the kill; answers: ${Object.entries(
      counts,
    )
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ')}`,
  );
  const sample = refused.find((a) => a.status === 503);
  if (sample) console.log(`  a refusal: 503, Retry-After ${sample.retryAfter}, ${sample.text}`);
  writeFileSync(stateFile, JSON.stringify(state));
  writeFileSync(resultFile, JSON.stringify({ answeredAfter, answers }));
  // While there is no primary, the server refuses with 503 and Retry-After: never a 500, never nothing.
  check(
    refused.every((a) => a.status === 503 && a.retryAfter),
    `refusals other than 503 with Retry-After: ${JSON.stringify(refused.filter((a) => a.status !== 503 || !a.retryAfter))}`,
  );
  check(refused.length > 0, 'no refusal at all: the fix did not meet the time without a primary');
}

async function books() {
  const [stateFile] = rest;
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  const first = await order(state.token, state.firstId);
  check(first?.status === 'FINISHED', `the first fix after the failover: ${JSON.stringify(first)}`);
  const second = await filled(state.token, state.secondId);
  const snapshot = await call('/api/pricer/view/my-data-snapshot', {}, state.token);
  const c = snapshot.contracts.find((x) => x.id === state.contractId);
  check(c && c.remaining_quantity === 8, `contract ${state.contractId}: ${JSON.stringify(c)}`);
  console.log(
    `  first fix ${state.firstId} still ${first.status}; second ${state.secondId} ${second.status}; contract ${state.contractId}: ${c.remaining_quantity} of 10 lots left`,
  );
}

const commands = { contract, 'fix-again': fixAgain, books };
check(commands[command], `unknown command ${command}`);
await commands[command]();
