import { describe, expect, it } from 'vitest';
import { selectionFromSearch, splitFuture, withSelection } from './selection';

describe('market selection in the URL', () => {
  it('reads exchange, product and future', () => {
    expect(selectionFromSearch(new URLSearchParams('exchange=SHFE&product=cu&future=SHFE.cu2702'))).toEqual({
      exchange: 'SHFE',
      product: 'cu',
      future: 'SHFE.cu2702',
    });
    expect(selectionFromSearch(new URLSearchParams('exchange=DCE'))).toEqual({
      exchange: 'DCE',
      product: null,
      future: null,
    });
  });

  it('derives exchange and product from the future, which wins over a contradiction', () => {
    expect(selectionFromSearch(new URLSearchParams('future=CZCE.SR605'))).toEqual({
      exchange: 'CZCE',
      product: 'SR',
      future: 'CZCE.SR605',
    });
    expect(selectionFromSearch(new URLSearchParams('exchange=DCE&product=m&future=SHFE.cu2702')).exchange).toBe('SHFE');
  });

  it('splits futures ids', () => {
    expect(splitFuture('SHFE.cu2702')).toEqual({ exchange: 'SHFE', product: 'cu' });
    expect(splitFuture('cu2702')).toBeNull();
  });

  it('writes the selection and keeps other parameters', () => {
    const next = withSelection(new URLSearchParams('theme=dark&future=SHFE.cu2702'), {
      exchange: 'DCE',
      product: 'm',
      future: null,
    });
    expect(next.toString()).toBe('theme=dark&exchange=DCE&product=m');
  });
});
