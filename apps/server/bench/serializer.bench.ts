/**
 * The answer's serialisation (issue 33 item 5): one orders page of 20 rows (the trader's view answer), written by
 * the zod encode the routes used before vs. the compiled serializer they use now (platform/http/serializer.ts),
 * beside JSON.stringify of the same object. Same process, same data, one run; prints µs per answer and the ratio.
 *
 *   npx tsx bench/serializer.bench.ts [--iterations=20000]
 */
import { ok, traderRoutes } from '@pfp/contract';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { compile } from '../src/platform/http/serializer';
import { fmt, footer, header } from './lib/stats';

const ITERATIONS = Number(process.argv.find((a) => a.startsWith('--iterations='))?.split('=')[1] ?? 20_000);
const schema = ok(traderRoutes.orders.response);

const row = (i: number) => ({
  id: 100_000 + i,
  tenant_id: 7,
  contract_id: 40 + (i % 5),
  pricer_id: 3,
  pricer_name: 'pricer1',
  contract_name: `铜2701-客户${i % 5}`,
  instrument_id: 'SHFE.cu2701',
  direction: i % 2 ? 'BUY' : 'SELL',
  volume_orign: 5,
  volume_traded: '5',
  limit_price: 0,
  trade_price: 86_450 + i * 10,
  trade_amount: (86_450 + i * 10) * 25,
  status: 'FINISHED',
  status_str: '已完成',
  last_msg: '全部成交',
  created_at: new Date(Date.UTC(2026, 10, 27, 1, i)),
  basis: 120,
  fixed_price: 86_570 + i * 10,
  multiplier: 5,
  fixed_amount: (86_570 + i * 10) * 25,
  acknowledged_at: i % 3 ? null : new Date(Date.UTC(2026, 10, 27, 2, i)),
  turnover: (86_450 + i * 10) * 25,
  unit: '吨',
});
const answer = { result: 'ok', data: { items: Array.from({ length: 20 }, (_, i) => row(i)), total_count: 10_000 } };

const zodWrite = serializerCompiler({ schema, method: 'POST', url: '/api/trader/view/orders', httpStatus: '200' });
const compiled = compile(schema)!;

function time(label: string, write: (d: unknown) => string) {
  for (let i = 0; i < 2_000; i++) write(answer); // warm-up
  const t0 = process.hrtime.bigint();
  let bytes = 0;
  for (let i = 0; i < ITERATIONS; i++) bytes += write(answer).length;
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / ITERATIONS;
  console.log(`  ${label.padEnd(28)} ${fmt(us, 1).padStart(7)} µs per page (${bytes / ITERATIONS} chars)`);
  return us;
}

header(`serializer.bench: an orders page of 20 rows, ${ITERATIONS} times each`);
// Same meaning: the same JSON once parsed.
const same = JSON.stringify(JSON.parse(zodWrite(answer))) === JSON.stringify(JSON.parse(compiled(answer)));
console.log(`  the two answers parse to the same JSON: ${same ? 'yes' : 'NO'}`);
const zod = time('zod encode (before)', zodWrite);
const fast = time('compiled serializer (now)', compiled);
time('JSON.stringify (reference)', (d) => JSON.stringify(d));
console.log(`  compiled / zod encode: ${fmt(fast / zod, 2)}×`);
footer();
