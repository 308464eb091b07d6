import { expect, it } from 'vitest';
import * as quant from './index.js';

it('exports the option functions, the structure engines and the calendar', () => {
  expect(Object.keys(quant).sort()).toEqual([
    'accumulator',
    'accumulatorPrice',
    'americanImpliedVol',
    'americanPrice',
    'asianOption',
    'asianPrice',
    'barrierOption',
    'barrierPrice',
    'black76ImpliedVol',
    'black76Price',
    'daysBetween',
    'isDate',
    'isTradingDay',
    'tradingDays',
    'vanilla',
    'yearFraction',
    'zeroCostStrike',
  ]);
  for (const fn of Object.values(quant)) expect(typeof fn).toBe('function');
});
