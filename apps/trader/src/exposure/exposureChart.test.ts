import { describe, expect, it } from 'vitest';
import type { ExposureItem } from '@pfp/contract';
import { byDeliveryMonth } from './exposureChart';

const item = (
  instrument_id: string,
  delivery_month: string | null,
  f: [number, number, number, number],
): ExposureItem => ({
  instrument_id,
  product_name: null,
  delivery_month,
  fixed_buy: f[0],
  fixed_sell: f[1],
  unfixed_buy: f[2],
  unfixed_sell: f[3],
  hedge_long: null,
  hedge_short: null,
  mismatch: null,
});

describe('exposure by delivery month', () => {
  it('adds buy and sell lots of every instrument of a month, months in order', () => {
    expect(
      byDeliveryMonth(
        [
          item('SHFE.cu2603', '2026-03', [4, 3, 6, 5]),
          item('DCE.m2601', '2026-01', [10, 0, 90, 0]),
          item('SHFE.rb2603', '2026-03', [0, 2, 0, 8]),
          item('X.y', null, [1, 0, 0, 0]),
        ],
        '-',
      ),
    ).toEqual({ months: ['-', '2026-01', '2026-03'], fixed: [1, 10, 9], unfixed: [0, 90, 19] });
  });
});
