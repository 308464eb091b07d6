import type { ExchangeId } from './exchanges';

/**
 * Chinese product names keyed by exchange and product id, with ids spelled as in
 * TqSdk symbols: lowercase for SHFE/DCE/INE/GFEX, uppercase for CZCE/CFFEX.
 */
export const PRODUCT_NAMES: Readonly<Record<ExchangeId, Readonly<Record<string, string>>>> = {
  SHFE: {
    cu: '铜',
    al: '铝',
    zn: '锌',
    pb: '铅',
    ni: '镍',
    sn: '锡',
    au: '黄金',
    ag: '白银',
    rb: '螺纹钢',
    wr: '线材',
    hc: '热轧卷板',
    ss: '不锈钢',
    bu: '石油沥青',
    ru: '天然橡胶',
    fu: '燃料油',
    sp: '纸浆',
    ao: '氧化铝',
    br: '丁二烯橡胶',
  },
  DCE: {
    a: '黄大豆1号',
    b: '黄大豆2号',
    m: '豆粕',
    y: '豆油',
    p: '棕榈油',
    c: '玉米',
    cs: '玉米淀粉',
    jd: '鸡蛋',
    l: '聚乙烯',
    v: '聚氯乙烯',
    pp: '聚丙烯',
    eg: '乙二醇',
    eb: '苯乙烯',
    pg: '液化石油气',
    i: '铁矿石',
    j: '焦炭',
    jm: '焦煤',
    lh: '生猪',
    rr: '粳米',
    fb: '纤维板',
    bb: '胶合板',
    lg: '原木',
  },
  CZCE: {
    SR: '白糖',
    CF: '棉花',
    CY: '棉纱',
    TA: 'PTA',
    MA: '甲醇',
    RM: '菜籽粕',
    OI: '菜籽油',
    RS: '油菜籽',
    FG: '玻璃',
    SA: '纯碱',
    UR: '尿素',
    AP: '苹果',
    CJ: '红枣',
    PK: '花生',
    SF: '硅铁',
    SM: '锰硅',
    PF: '短纤',
    PX: '对二甲苯',
    PR: '瓶片',
    SH: '烧碱',
    ZC: '动力煤',
    WH: '强麦',
    PM: '普麦',
    RI: '早籼稻',
    LR: '晚籼稻',
    JR: '粳稻',
  },
  CFFEX: {
    IF: '沪深300股指',
    IH: '上证50股指',
    IC: '中证500股指',
    IM: '中证1000股指',
    TS: '2年期国债',
    TF: '5年期国债',
    T: '10年期国债',
    TL: '30年期国债',
  },
  INE: {
    sc: '原油',
    lu: '低硫燃料油',
    nr: '20号胶',
    bc: '国际铜',
    ec: '集运指数(欧线)',
  },
  GFEX: {
    si: '工业硅',
    lc: '碳酸锂',
    ps: '多晶硅',
  },
};

/**
 * Chinese name of a product, e.g. `productName('SHFE', 'cu')` → '铜'.
 * The product id is matched exactly first, then in the exchange's own letter case
 * (so 'CU' and 'sr' also resolve). Unknown exchanges/products return `productId`.
 */
export function productName(exchange: string, productId: string): string {
  if (!Object.hasOwn(PRODUCT_NAMES, exchange)) return productId;
  const names = PRODUCT_NAMES[exchange as ExchangeId];
  if (Object.hasOwn(names, productId)) return names[productId] ?? productId;
  const normalized = exchange === 'CZCE' || exchange === 'CFFEX' ? productId.toUpperCase() : productId.toLowerCase();
  if (Object.hasOwn(names, normalized)) return names[normalized] ?? productId;
  return productId;
}
