import { expect, it } from 'vitest';
import * as quant from './index.js';

it('exports exactly the four option functions', () => {
  expect(Object.keys(quant).sort()).toEqual([
    'americanImpliedVol',
    'americanPrice',
    'black76ImpliedVol',
    'black76Price',
  ]);
  for (const fn of Object.values(quant)) expect(typeof fn).toBe('function');
});
