import { describe, it, expect } from 'vitest';
import { EXCHANGES, EXCHANGE_NAMES, exchangeName, isExchangeId } from './exchanges';

describe('exchanges', () => {
  it('lists the six Chinese futures exchanges in order', () => {
    expect(EXCHANGES).toEqual(['SHFE', 'DCE', 'CZCE', 'CFFEX', 'INE', 'GFEX']);
  });

  it('has a Chinese name for every exchange and nothing else', () => {
    expect(Object.keys(EXCHANGE_NAMES).sort()).toEqual([...EXCHANGES].sort());
    expect(EXCHANGE_NAMES).toEqual({
      SHFE: '上海期货交易所',
      DCE: '大连商品交易所',
      CZCE: '郑州商品交易所',
      CFFEX: '中国金融期货交易所',
      INE: '上海国际能源交易中心',
      GFEX: '广州期货交易所',
    });
  });

  it('exchangeName resolves known ids', () => {
    expect(exchangeName('SHFE')).toBe('上海期货交易所');
    expect(exchangeName('GFEX')).toBe('广州期货交易所');
  });

  it('exchangeName falls back to the id', () => {
    expect(exchangeName('LME')).toBe('LME');
    expect(exchangeName('')).toBe('');
    expect(exchangeName('shfe')).toBe('shfe');
    expect(exchangeName('toString')).toBe('toString');
  });

  it('isExchangeId narrows only real ids', () => {
    expect(isExchangeId('INE')).toBe(true);
    expect(isExchangeId('KQ')).toBe(false);
    expect(isExchangeId('constructor')).toBe(false);
  });
});
