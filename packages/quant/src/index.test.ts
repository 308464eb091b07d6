import { expect, it } from 'vitest';
import * as quant from './index.js';

it('exports the option functions, the structure engines, the calendar and the smile', () => {
  expect(Object.keys(quant).sort()).toEqual([
    'SmileSurface',
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
    'butterflyCheck',
    'checkGrid',
    'daysBetween',
    'fitSvi',
    'gFunction',
    'isDate',
    'isTradingDay',
    'sviDerivatives',
    'sviW',
    'tradingDays',
    'vanilla',
    'yearFraction',
    'zeroCostStrike',
  ]);
  for (const fn of Object.values(quant)) expect(typeof fn).toBe('function');
});
