import { describe, it, expect } from 'vitest';
import { EXCHANGES } from './exchanges';
import { PRODUCT_NAMES, productName } from './products';

describe('PRODUCT_NAMES', () => {
  it('covers every exchange', () => {
    expect(Object.keys(PRODUCT_NAMES).sort()).toEqual([...EXCHANGES].sort());
  });

  it('has at least 60 products in total', () => {
    const total = EXCHANGES.reduce((sum, ex) => sum + Object.keys(PRODUCT_NAMES[ex]).length, 0);
    expect(total).toBeGreaterThanOrEqual(60);
  });

  it('uses TqSdk letter case per exchange', () => {
    for (const ex of ['SHFE', 'DCE', 'INE', 'GFEX'] as const) {
      for (const id of Object.keys(PRODUCT_NAMES[ex])) expect(id, `${ex}.${id}`).toMatch(/^[a-z]+$/);
    }
    for (const ex of ['CZCE', 'CFFEX'] as const) {
      for (const id of Object.keys(PRODUCT_NAMES[ex])) expect(id, `${ex}.${id}`).toMatch(/^[A-Z]+$/);
    }
  });

  it('has non-empty names containing Chinese (except PTA)', () => {
    for (const ex of EXCHANGES) {
      for (const [id, name] of Object.entries(PRODUCT_NAMES[ex])) {
        if (ex === 'CZCE' && id === 'TA') continue;
        expect(name, `${ex}.${id}`).toMatch(/\p{Script=Han}/u);
      }
    }
  });

  it('contains the required product ids', () => {
    const required: Record<string, string[]> = {
      SHFE: ['cu', 'al', 'zn', 'pb', 'ni', 'sn', 'au', 'ag', 'rb', 'hc', 'ss', 'bu', 'ru', 'fu', 'sp', 'ao', 'br'],
      DCE: [
        'a',
        'b',
        'm',
        'y',
        'p',
        'c',
        'cs',
        'jd',
        'l',
        'v',
        'pp',
        'eg',
        'eb',
        'pg',
        'i',
        'j',
        'jm',
        'lh',
        'rr',
        'fb',
        'bb',
        'lg',
      ],
      CZCE: [
        'SR',
        'CF',
        'TA',
        'MA',
        'RM',
        'OI',
        'FG',
        'SA',
        'UR',
        'AP',
        'CJ',
        'PK',
        'SF',
        'SM',
        'PF',
        'PX',
        'SH',
        'CY',
        'ZC',
      ],
      CFFEX: ['IF', 'IH', 'IC', 'IM', 'T', 'TF', 'TS', 'TL'],
      INE: ['sc', 'lu', 'nr', 'bc', 'ec'],
      GFEX: ['si', 'lc', 'ps'],
    };
    for (const [ex, ids] of Object.entries(required)) {
      for (const id of ids) expect(productName(ex, id), `${ex}.${id}`).not.toBe(id);
    }
  });
});

describe('productName', () => {
  it.each([
    ['SHFE', 'cu', '铜'],
    ['SHFE', 'au', '黄金'],
    ['SHFE', 'rb', '螺纹钢'],
    ['SHFE', 'ao', '氧化铝'],
    ['DCE', 'm', '豆粕'],
    ['DCE', 'i', '铁矿石'],
    ['DCE', 'lh', '生猪'],
    ['CZCE', 'SR', '白糖'],
    ['CZCE', 'MA', '甲醇'],
    ['CZCE', 'SA', '纯碱'],
    ['CFFEX', 'IF', '沪深300股指'],
    ['CFFEX', 'T', '10年期国债'],
    ['INE', 'sc', '原油'],
    ['INE', 'ec', '集运指数(欧线)'],
    ['GFEX', 'lc', '碳酸锂'],
    ['GFEX', 'si', '工业硅'],
    ['GFEX', 'ps', '多晶硅'],
  ])('%s.%s → %s', (ex, id, name) => {
    expect(productName(ex, id)).toBe(name);
  });

  it('tolerates the wrong letter case', () => {
    expect(productName('SHFE', 'CU')).toBe('铜');
    expect(productName('CZCE', 'sr')).toBe('白糖');
  });

  it('falls back to the product id', () => {
    expect(productName('SHFE', 'xx')).toBe('xx');
    expect(productName('LME', 'cu')).toBe('cu');
    expect(productName('DCE', 'SR')).toBe('SR');
    expect(productName('SHFE', 'toString')).toBe('toString');
    expect(productName('__proto__', 'cu')).toBe('cu');
  });
});
