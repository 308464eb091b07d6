/**
 * The instrument catalogue's data: real products of the six Chinese futures exchanges.
 *
 * Tick sizes, multipliers, contract months, sessions, strike intervals, exercise styles and
 * last-trading-day rules follow the exchanges' published contract specifications (as of 2025, from
 * memory of the rule books, so treat details as approximate). Price limits are the normal-period
 * ones; exchanges raise them around holidays and in volatile markets. refPrice / vol / carry are
 * simulation parameters: realistic late-2025 levels, not exchange data.
 *
 * Names must equal @pfp/i18n PRODUCT_NAMES (checked by catalogue.test.ts).
 */
import type {
  ExchangeId,
  ExerciseStyle,
  ExpiryRule,
  ListingRule,
  OptionProductSpec,
  ProductSpec,
  Session,
  StrikeBand,
} from './types';

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
const ODD = [1, 3, 5, 7, 9, 11] as const;
const EVEN = [2, 4, 6, 8, 10, 12] as const;
const QUARTERS = [3, 6, 9, 12] as const;

const monthly = (months: readonly number[], count = months.length): ListingRule => ({ kind: 'monthly', months, count });

/** Commodity day sessions (all four commodity exchanges). */
const DAY: readonly Session[] = [
  { start: '09:00', end: '10:15' },
  { start: '10:30', end: '11:30' },
  { start: '13:30', end: '15:00' },
];
const CFFEX_INDEX_DAY: readonly Session[] = [
  { start: '09:30', end: '11:30' },
  { start: '13:00', end: '15:00' },
];
const CFFEX_BOND_DAY: readonly Session[] = [
  { start: '09:30', end: '11:30' },
  { start: '13:00', end: '15:15' },
];
const NIGHT_2300: Session = { start: '21:00', end: '23:00' };
const NIGHT_0100: Session = { start: '21:00', end: '01:00' };
const NIGHT_0230: Session = { start: '21:00', end: '02:30' };

const FRIDAY = 5;
const MONDAY = 1;

/** Futures last trading days. */
const FUT_EXPIRY = {
  /** SHFE and INE (except sc, lu): the 15th of the contract month, rolled to the next trading day. */
  fifteenth: { kind: 'dayOfMonth', day: 15, monthOffset: 0 },
  /** DCE, CZCE, GFEX: the 10th trading day of the contract month. */
  tenthTradingDay: { kind: 'nthTradingDay', n: 10, monthOffset: 0 },
  /** INE sc, lu: the last trading day of the month before the delivery month. */
  lastOfPrevMonth: { kind: 'nthTradingDay', n: -1, monthOffset: -1 },
  /** CFFEX stock-index futures: the third Friday of the contract month. */
  thirdFriday: { kind: 'nthWeekday', n: 3, weekday: FRIDAY, monthOffset: 0 },
  /** CFFEX treasury futures: the second Friday of the contract month. */
  secondFriday: { kind: 'nthWeekday', n: 2, weekday: FRIDAY, monthOffset: 0 },
  /** INE ec (container freight index, settled in cash): the last Monday of the contract month. */
  lastMonday: { kind: 'nthWeekday', n: -1, weekday: MONDAY, monthOffset: 0 },
} satisfies Record<string, ExpiryRule>;

/** Options last trading days (= expiry days), per exchange. */
const OPT_EXPIRY = {
  /** SHFE: fifth-to-last trading day of the month before the delivery month. */
  SHFE: { kind: 'nthTradingDay', n: -5, monthOffset: -1 },
  /** INE sc: thirteenth-to-last trading day of the month before the delivery month. */
  INE: { kind: 'nthTradingDay', n: -13, monthOffset: -1 },
  /** DCE: 12th trading day of the month before the delivery month (rule of 2025-01 contracts on; was the 5th). */
  DCE: { kind: 'nthTradingDay', n: 12, monthOffset: -1 },
  /** CZCE: 3rd trading day of the month before the delivery month. */
  CZCE: { kind: 'nthTradingDay', n: 3, monthOffset: -1 },
  /** GFEX: 5th trading day of the month before the delivery month. */
  GFEX: { kind: 'nthTradingDay', n: 5, monthOffset: -1 },
  /** CFFEX index options: third Friday of the contract month, the same day as the index future. */
  CFFEX: { kind: 'nthWeekday', n: 3, weekday: FRIDAY, monthOffset: 0 },
} satisfies Record<ExchangeId, ExpiryRule>;

const AMERICAN_NOTE: Record<ExchangeId, string> = {
  SHFE: 'American: SHFE options listed from 2019 on (ru, al, zn, rb, ag, pb, ni, sn, ao) are American.',
  DCE: 'American: all DCE options are American-style.',
  CZCE: 'American: all CZCE options are American-style.',
  INE: 'American: INE crude oil options are American-style.',
  GFEX: 'American: all GFEX options are American-style.',
  CFFEX: 'CFFEX index options are European-style.',
};

/** Strike bands from boundaries: bands(10000, 50, 20000, 100, 200) → ≤10000: 50; ≤20000: 100; above: 200. */
function bands(...spec: number[]): StrikeBand[] {
  const out: StrikeBand[] = [];
  for (let i = 0; i + 1 < spec.length; i += 2) out.push({ upTo: spec[i] as number, step: spec[i + 1] as number });
  out.push({ upTo: Infinity, step: spec[spec.length - 1] as number });
  return out;
}

type Smile = 'metal' | 'precious' | 'agri' | 'energy' | 'index';
const SMILES: Record<Smile, { skew: number; curvature: number }> = {
  metal: { skew: -0.03, curvature: 0.035 },
  precious: { skew: 0.03, curvature: 0.03 },
  agri: { skew: 0.04, curvature: 0.04 },
  energy: { skew: -0.02, curvature: 0.04 },
  index: { skew: -0.08, curvature: 0.04 },
};

function option(
  exchange: ExchangeId,
  id: string,
  name: string,
  tick: number,
  strikeBands: StrikeBand[],
  smile: Smile,
  extra: Partial<OptionProductSpec> & { style?: ExerciseStyle; multiplier?: number } = {},
): Omit<OptionProductSpec, 'multiplier'> & { multiplier?: number } {
  return {
    id,
    name,
    style: extra.style ?? (exchange === 'CFFEX' ? 'E' : 'A'),
    styleNote: extra.styleNote ?? AMERICAN_NOTE[exchange],
    tick,
    strikeBands,
    expiry: OPT_EXPIRY[exchange],
    ...SMILES[smile],
    ...extra,
  };
}

interface ProductInput {
  id: string;
  name: string;
  unit?: string;
  tick: number;
  multiplier: number;
  listing?: ListingRule;
  expiry?: ExpiryRule;
  daySessions?: readonly Session[];
  night: Session | null;
  limitPct: number;
  refPrice: number;
  vol: number;
  carry?: number;
  option?: ReturnType<typeof option>;
}

const DEFAULT_EXPIRY: Record<ExchangeId, ExpiryRule> = {
  SHFE: FUT_EXPIRY.fifteenth,
  INE: FUT_EXPIRY.fifteenth,
  DCE: FUT_EXPIRY.tenthTradingDay,
  CZCE: FUT_EXPIRY.tenthTradingDay,
  GFEX: FUT_EXPIRY.tenthTradingDay,
  CFFEX: FUT_EXPIRY.thirdFriday,
};

function products(exchange: ExchangeId, inputs: ProductInput[]): ProductSpec[] {
  return inputs.map(({ night, option: opt, ...p }) => {
    const spec: ProductSpec = {
      exchange,
      id: p.id,
      name: p.name,
      unit: p.unit ?? '元/吨',
      tick: p.tick,
      multiplier: p.multiplier,
      listing: p.listing ?? monthly(ALL),
      expiry: p.expiry ?? DEFAULT_EXPIRY[exchange],
      daySessions: p.daySessions ?? DAY,
      nightSession: night,
      limitPct: p.limitPct,
      refPrice: p.refPrice,
      vol: p.vol,
      carry: p.carry ?? 0.01,
    };
    // One option lot is one futures lot, so the option multiplier is the future's (CFFEX index options: 100).
    if (opt) spec.option = { ...opt, multiplier: opt.multiplier ?? p.multiplier };
    return spec;
  });
}

const SHFE = products('SHFE', [
  {
    id: 'cu',
    name: '铜',
    tick: 10,
    multiplier: 5,
    night: NIGHT_0100,
    limitPct: 0.07,
    refPrice: 86000,
    vol: 0.16,
    option: option('SHFE', 'cu', '铜期权', 1, bands(40000, 500, 80000, 1000, 2000), 'metal', {
      style: 'E',
      styleNote: 'European: SHFE copper options have been European-style since their listing in 2018-09.',
    }),
  },
  {
    id: 'al',
    name: '铝',
    tick: 5,
    multiplier: 5,
    night: NIGHT_0100,
    limitPct: 0.07,
    refPrice: 21200,
    vol: 0.13,
    option: option('SHFE', 'al', '铝期权', 1, bands(10000, 50, 20000, 100, 200), 'metal'),
  },
  {
    id: 'zn',
    name: '锌',
    tick: 5,
    multiplier: 5,
    night: NIGHT_0100,
    limitPct: 0.08,
    refPrice: 22400,
    vol: 0.17,
    option: option('SHFE', 'zn', '锌期权', 1, bands(10000, 100, 25000, 200, 500), 'metal'),
  },
  {
    id: 'pb',
    name: '铅',
    tick: 5,
    multiplier: 5,
    night: NIGHT_0100,
    limitPct: 0.07,
    refPrice: 17200,
    vol: 0.13,
    option: option('SHFE', 'pb', '铅期权', 1, bands(10000, 100, 25000, 200, 500), 'metal'),
  },
  {
    id: 'ni',
    name: '镍',
    tick: 10,
    multiplier: 1,
    night: NIGHT_0100,
    limitPct: 0.1,
    refPrice: 120000,
    vol: 0.24,
    option: option('SHFE', 'ni', '镍期权', 10, bands(100000, 1000, 2000), 'metal'),
  },
  {
    id: 'sn',
    name: '锡',
    tick: 10,
    multiplier: 1,
    night: NIGHT_0100,
    limitPct: 0.1,
    refPrice: 290000,
    vol: 0.24,
    option: option('SHFE', 'sn', '锡期权', 10, bands(200000, 2000, 4000), 'metal'),
  },
  {
    id: 'au',
    name: '黄金',
    unit: '元/克',
    tick: 0.02,
    multiplier: 1000,
    // The three nearest months plus the even months within a year.
    listing: { kind: 'nearPlus', consecutive: 3, months: EVEN, horizon: 12 },
    night: NIGHT_0230,
    limitPct: 0.08,
    refPrice: 940,
    vol: 0.2,
    carry: 0.02,
    option: option('SHFE', 'au', '黄金期权', 0.02, bands(200, 2, 400, 4, 8), 'precious', {
      style: 'E',
      styleNote: 'European: SHFE gold options have been European-style since their listing in 2019-12.',
    }),
  },
  {
    id: 'ag',
    name: '白银',
    unit: '元/千克',
    tick: 1,
    multiplier: 15,
    night: NIGHT_0230,
    limitPct: 0.09,
    refPrice: 12000,
    vol: 0.3,
    carry: 0.02,
    option: option('SHFE', 'ag', '白银期权', 1, bands(4000, 50, 8000, 100, 200), 'precious'),
  },
  {
    id: 'rb',
    name: '螺纹钢',
    tick: 1,
    multiplier: 10,
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 3100,
    vol: 0.2,
    option: option('SHFE', 'rb', '螺纹钢期权', 0.5, bands(2500, 25, 5000, 50, 100), 'metal'),
  },
  { id: 'hc', name: '热轧卷板', tick: 1, multiplier: 10, night: NIGHT_2300, limitPct: 0.07, refPrice: 3280, vol: 0.19 },
  { id: 'ss', name: '不锈钢', tick: 5, multiplier: 5, night: NIGHT_0100, limitPct: 0.07, refPrice: 12650, vol: 0.15 },
  {
    id: 'bu',
    name: '石油沥青',
    tick: 1,
    multiplier: 10,
    // Monthly for the nearest six months, quarterly after that, up to two years out.
    listing: { kind: 'nearPlus', consecutive: 6, months: QUARTERS, horizon: 24 },
    night: NIGHT_2300,
    limitPct: 0.08,
    refPrice: 3200,
    vol: 0.22,
  },
  {
    id: 'ru',
    name: '天然橡胶',
    tick: 5,
    multiplier: 10,
    listing: monthly([1, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 15000,
    vol: 0.22,
    option: option('SHFE', 'ru', '天然橡胶期权', 1, bands(10000, 100, 25000, 250, 500), 'agri'),
  },
  { id: 'fu', name: '燃料油', tick: 1, multiplier: 10, night: NIGHT_2300, limitPct: 0.09, refPrice: 2800, vol: 0.27 },
  { id: 'sp', name: '纸浆', tick: 2, multiplier: 10, night: NIGHT_2300, limitPct: 0.07, refPrice: 5200, vol: 0.18 },
  {
    id: 'ao',
    name: '氧化铝',
    tick: 1,
    multiplier: 20,
    night: NIGHT_0100,
    limitPct: 0.08,
    refPrice: 2800,
    vol: 0.28,
    option: option('SHFE', 'ao', '氧化铝期权', 0.5, bands(2000, 25, 5000, 50, 100), 'metal'),
  },
  {
    id: 'br',
    name: '丁二烯橡胶',
    tick: 5,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.09,
    refPrice: 11000,
    vol: 0.28,
  },
]);

const DCE_OIL = bands(5000, 50, 10000, 100, 200);
const DCE_MEAL = bands(2000, 25, 5000, 50, 100);
const DCE_CORN = bands(1000, 10, 3000, 20, 40);
const DCE_SOY_MONTHS = [1, 3, 5, 7, 8, 9, 11, 12];

const DCE = products('DCE', [
  {
    id: 'a',
    name: '黄大豆1号',
    tick: 1,
    multiplier: 10,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 4100,
    vol: 0.13,
    option: option('DCE', 'a', '黄大豆1号期权', 0.5, DCE_MEAL, 'agri'),
  },
  {
    id: 'b',
    name: '黄大豆2号',
    tick: 1,
    multiplier: 10,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 3600,
    vol: 0.17,
    option: option('DCE', 'b', '黄大豆2号期权', 0.5, DCE_MEAL, 'agri'),
  },
  {
    id: 'm',
    name: '豆粕',
    tick: 1,
    multiplier: 10,
    listing: monthly(DCE_SOY_MONTHS),
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 3000,
    vol: 0.18,
    option: option('DCE', 'm', '豆粕期权', 0.5, DCE_MEAL, 'agri'),
  },
  {
    id: 'y',
    name: '豆油',
    tick: 2,
    multiplier: 10,
    listing: monthly(DCE_SOY_MONTHS),
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 8200,
    vol: 0.18,
    option: option('DCE', 'y', '豆油期权', 0.5, DCE_OIL, 'agri'),
  },
  {
    id: 'p',
    name: '棕榈油',
    tick: 2,
    multiplier: 10,
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 8800,
    vol: 0.23,
    option: option('DCE', 'p', '棕榈油期权', 0.5, DCE_OIL, 'agri'),
  },
  {
    id: 'c',
    name: '玉米',
    tick: 1,
    multiplier: 10,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.05,
    refPrice: 2200,
    vol: 0.12,
    option: option('DCE', 'c', '玉米期权', 0.5, DCE_CORN, 'agri'),
  },
  {
    id: 'cs',
    name: '玉米淀粉',
    tick: 1,
    multiplier: 10,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.05,
    refPrice: 2500,
    vol: 0.14,
    option: option('DCE', 'cs', '玉米淀粉期权', 0.5, DCE_CORN, 'agri'),
  },
  {
    id: 'jd',
    name: '鸡蛋',
    unit: '元/500千克',
    tick: 1,
    multiplier: 10,
    night: null,
    limitPct: 0.06,
    refPrice: 3100,
    vol: 0.22,
  },
  {
    id: 'l',
    name: '聚乙烯',
    tick: 1,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 6900,
    vol: 0.15,
    option: option('DCE', 'l', '聚乙烯期权', 0.5, DCE_OIL, 'energy'),
  },
  {
    id: 'v',
    name: '聚氯乙烯',
    tick: 1,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 4700,
    vol: 0.18,
    option: option('DCE', 'v', '聚氯乙烯期权', 0.5, DCE_OIL, 'energy'),
  },
  {
    id: 'pp',
    name: '聚丙烯',
    tick: 1,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 6600,
    vol: 0.15,
    option: option('DCE', 'pp', '聚丙烯期权', 0.5, DCE_OIL, 'energy'),
  },
  {
    id: 'eg',
    name: '乙二醇',
    tick: 1,
    multiplier: 10,
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 3900,
    vol: 0.18,
    option: option('DCE', 'eg', '乙二醇期权', 0.5, DCE_OIL, 'energy'),
  },
  {
    id: 'eb',
    name: '苯乙烯',
    tick: 1,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.08,
    refPrice: 6600,
    vol: 0.22,
    option: option('DCE', 'eb', '苯乙烯期权', 0.5, DCE_OIL, 'energy'),
  },
  {
    id: 'pg',
    name: '液化石油气',
    tick: 1,
    multiplier: 20,
    night: NIGHT_2300,
    limitPct: 0.08,
    refPrice: 4300,
    vol: 0.23,
    option: option('DCE', 'pg', '液化石油气期权', 0.2, DCE_OIL, 'energy'),
  },
  {
    id: 'i',
    name: '铁矿石',
    tick: 0.5,
    multiplier: 100,
    night: NIGHT_2300,
    limitPct: 0.09,
    refPrice: 790,
    vol: 0.27,
    carry: -0.04,
    option: option('DCE', 'i', '铁矿石期权', 0.1, bands(300, 5, 1000, 10, 20), 'metal'),
  },
  { id: 'j', name: '焦炭', tick: 0.5, multiplier: 100, night: NIGHT_2300, limitPct: 0.09, refPrice: 1650, vol: 0.28 },
  { id: 'jm', name: '焦煤', tick: 0.5, multiplier: 60, night: NIGHT_2300, limitPct: 0.1, refPrice: 1150, vol: 0.35 },
  {
    id: 'lh',
    name: '生猪',
    tick: 5,
    multiplier: 16,
    listing: monthly(ODD),
    night: null,
    limitPct: 0.08,
    refPrice: 11500,
    vol: 0.25,
  },
]);

const CZCE_500 = bands(3000, 50, 10000, 100, 200);
const CZCE_2500 = bands(2500, 25, 5000, 50, 100);
const CZCE_5000 = bands(5000, 50, 10000, 100, 200);
const CZCE_1000 = bands(1000, 10, 3000, 20, 40);

const CZCE = products('CZCE', [
  {
    id: 'SR',
    name: '白糖',
    tick: 1,
    multiplier: 10,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 5400,
    vol: 0.14,
    option: option('CZCE', 'SR', '白糖期权', 0.5, CZCE_500, 'agri'),
  },
  {
    id: 'CF',
    name: '棉花',
    tick: 5,
    multiplier: 5,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 13500,
    vol: 0.14,
    option: option('CZCE', 'CF', '棉花期权', 1, bands(10000, 100, 20000, 200, 400), 'agri'),
  },
  {
    id: 'TA',
    name: 'PTA',
    tick: 2,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 4600,
    vol: 0.2,
    option: option('CZCE', 'TA', 'PTA期权', 0.5, CZCE_5000, 'energy'),
  },
  {
    id: 'MA',
    name: '甲醇',
    tick: 1,
    multiplier: 10,
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 2200,
    vol: 0.22,
    option: option('CZCE', 'MA', '甲醇期权', 0.5, CZCE_2500, 'energy'),
  },
  {
    id: 'RM',
    name: '菜籽粕',
    tick: 1,
    multiplier: 10,
    listing: monthly([1, 3, 5, 7, 8, 9, 11]),
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 2450,
    vol: 0.22,
    option: option('CZCE', 'RM', '菜籽粕期权', 0.5, CZCE_2500, 'agri'),
  },
  {
    id: 'OI',
    name: '菜籽油',
    tick: 1,
    multiplier: 10,
    listing: monthly(ODD),
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 9700,
    vol: 0.18,
    option: option('CZCE', 'OI', '菜籽油期权', 0.5, CZCE_5000, 'agri'),
  },
  {
    id: 'FG',
    name: '玻璃',
    tick: 1,
    multiplier: 20,
    night: NIGHT_2300,
    limitPct: 0.08,
    refPrice: 1050,
    vol: 0.3,
    option: option('CZCE', 'FG', '玻璃期权', 0.5, CZCE_1000, 'energy'),
  },
  {
    id: 'SA',
    name: '纯碱',
    tick: 1,
    multiplier: 20,
    night: NIGHT_2300,
    limitPct: 0.08,
    refPrice: 1250,
    vol: 0.32,
    option: option('CZCE', 'SA', '纯碱期权', 0.5, CZCE_1000, 'energy'),
  },
  {
    id: 'UR',
    name: '尿素',
    tick: 1,
    multiplier: 20,
    night: null,
    limitPct: 0.06,
    refPrice: 1600,
    vol: 0.25,
    option: option('CZCE', 'UR', '尿素期权', 0.5, CZCE_1000, 'agri'),
  },
  {
    id: 'AP',
    name: '苹果',
    tick: 1,
    multiplier: 10,
    listing: monthly([1, 3, 4, 5, 10, 11, 12]),
    night: null,
    limitPct: 0.08,
    refPrice: 9000,
    vol: 0.25,
    option: option('CZCE', 'AP', '苹果期权', 0.5, CZCE_5000, 'agri'),
  },
  {
    id: 'PK',
    name: '花生',
    tick: 2,
    multiplier: 5,
    listing: monthly([1, 3, 4, 10, 11, 12]),
    night: null,
    limitPct: 0.06,
    refPrice: 7800,
    vol: 0.16,
    option: option('CZCE', 'PK', '花生期权', 0.5, CZCE_5000, 'agri'),
  },
  {
    id: 'SF',
    name: '硅铁',
    tick: 2,
    multiplier: 5,
    night: null,
    limitPct: 0.08,
    refPrice: 5600,
    vol: 0.22,
    option: option('CZCE', 'SF', '硅铁期权', 0.5, CZCE_5000, 'metal'),
  },
  {
    id: 'SM',
    name: '锰硅',
    tick: 2,
    multiplier: 5,
    night: null,
    limitPct: 0.08,
    refPrice: 5800,
    vol: 0.22,
    option: option('CZCE', 'SM', '锰硅期权', 0.5, CZCE_5000, 'metal'),
  },
  {
    id: 'PX',
    name: '对二甲苯',
    tick: 2,
    multiplier: 5,
    night: NIGHT_2300,
    limitPct: 0.06,
    refPrice: 6800,
    vol: 0.22,
    option: option('CZCE', 'PX', '对二甲苯期权', 0.5, CZCE_5000, 'energy'),
  },
  {
    id: 'SH',
    name: '烧碱',
    tick: 1,
    multiplier: 30,
    night: NIGHT_2300,
    limitPct: 0.07,
    refPrice: 2300,
    vol: 0.3,
    option: option('CZCE', 'SH', '烧碱期权', 0.5, CZCE_2500, 'energy'),
  },
]);

/** CFFEX index options: 25/50/100/200 for the three nearest months, doubled for the quarterly months. */
const CFFEX_NEAR = bands(2500, 25, 5000, 50, 10000, 100, 200);
const CFFEX_FAR = bands(2500, 50, 5000, 100, 10000, 200, 400);
const indexOption = (id: string, name: string) =>
  option('CFFEX', id, name, 0.2, CFFEX_NEAR, 'index', {
    farStrikeBands: CFFEX_FAR,
    nearMonths: 3,
    multiplier: 100,
    styleNote:
      'European: CFFEX index options are European and settle in cash on the index; the simulation prices them ' +
      'off the same-month index future (same expiry day), which is the index forward.',
  });

const CFFEX = products('CFFEX', [
  {
    id: 'IF',
    name: '沪深300股指',
    unit: '点',
    tick: 0.2,
    multiplier: 300,
    listing: { kind: 'cffexIndex' },
    daySessions: CFFEX_INDEX_DAY,
    night: null,
    limitPct: 0.1,
    refPrice: 4600,
    vol: 0.18,
    carry: -0.02,
    option: indexOption('IO', '沪深300股指期权'),
  },
  {
    id: 'IH',
    name: '上证50股指',
    unit: '点',
    tick: 0.2,
    multiplier: 300,
    listing: { kind: 'cffexIndex' },
    daySessions: CFFEX_INDEX_DAY,
    night: null,
    limitPct: 0.1,
    refPrice: 3000,
    vol: 0.16,
    carry: 0,
    option: indexOption('HO', '上证50股指期权'),
  },
  {
    id: 'IC',
    name: '中证500股指',
    unit: '点',
    tick: 0.2,
    multiplier: 200,
    listing: { kind: 'cffexIndex' },
    daySessions: CFFEX_INDEX_DAY,
    night: null,
    limitPct: 0.1,
    refPrice: 7200,
    vol: 0.22,
    carry: -0.06,
  },
  {
    id: 'IM',
    name: '中证1000股指',
    unit: '点',
    tick: 0.2,
    multiplier: 200,
    listing: { kind: 'cffexIndex' },
    daySessions: CFFEX_INDEX_DAY,
    night: null,
    limitPct: 0.1,
    refPrice: 7400,
    vol: 0.25,
    carry: -0.08,
    option: indexOption('MO', '中证1000股指期权'),
  },
  ...(
    [
      ['TS', '2年期国债', 0.002, 20000, 0.005, 102.4, 0.008],
      ['TF', '5年期国债', 0.005, 10000, 0.012, 105.8, 0.025],
      ['T', '10年期国债', 0.005, 10000, 0.02, 108.3, 0.035],
      ['TL', '30年期国债', 0.01, 10000, 0.035, 115.5, 0.07],
    ] as const
  ).map(([id, name, tick, multiplier, limitPct, refPrice, vol]): ProductInput => ({
    id,
    name,
    unit: '元(百元面值)',
    tick,
    multiplier,
    // The three nearest quarterly months.
    listing: monthly(QUARTERS, 3),
    expiry: FUT_EXPIRY.secondFriday,
    daySessions: CFFEX_BOND_DAY,
    night: null,
    limitPct,
    refPrice,
    vol,
    carry: 0,
  })),
]);

const INE = products('INE', [
  {
    id: 'sc',
    name: '原油',
    unit: '元/桶',
    tick: 0.1,
    multiplier: 1000,
    // Monthly for twelve months, quarterly after that (the exchange goes out to three years).
    listing: { kind: 'nearPlus', consecutive: 12, months: QUARTERS, horizon: 36 },
    expiry: FUT_EXPIRY.lastOfPrevMonth,
    night: NIGHT_0230,
    limitPct: 0.1,
    refPrice: 480,
    vol: 0.3,
    carry: -0.04,
    option: option('INE', 'sc', '原油期权', 0.05, bands(250, 2, 500, 4, 8), 'energy', { maxChains: 12 }),
  },
  {
    id: 'lu',
    name: '低硫燃料油',
    tick: 1,
    multiplier: 10,
    expiry: FUT_EXPIRY.lastOfPrevMonth,
    night: NIGHT_2300,
    limitPct: 0.09,
    refPrice: 3000,
    vol: 0.28,
  },
  { id: 'nr', name: '20号胶', tick: 5, multiplier: 10, night: NIGHT_2300, limitPct: 0.08, refPrice: 12500, vol: 0.22 },
  { id: 'bc', name: '国际铜', tick: 10, multiplier: 5, night: NIGHT_0100, limitPct: 0.07, refPrice: 77000, vol: 0.16 },
  {
    id: 'ec',
    name: '集运指数(欧线)',
    unit: '点',
    tick: 0.1,
    multiplier: 50,
    listing: monthly(EVEN),
    expiry: FUT_EXPIRY.lastMonday,
    night: null,
    limitPct: 0.18,
    refPrice: 1600,
    vol: 0.55,
    carry: -0.1,
  },
]);

const GFEX_BANDS = bands(50000, 500, 150000, 1000, 2000);

const GFEX = products('GFEX', [
  {
    id: 'si',
    name: '工业硅',
    tick: 5,
    multiplier: 5,
    night: null,
    limitPct: 0.09,
    refPrice: 9000,
    vol: 0.28,
    option: option('GFEX', 'si', '工业硅期权', 1, bands(10000, 100, 30000, 200, 400), 'metal'),
  },
  {
    id: 'lc',
    name: '碳酸锂',
    tick: 20,
    multiplier: 1,
    night: null,
    limitPct: 0.09,
    refPrice: 85000,
    vol: 0.45,
    carry: 0.02,
    option: option('GFEX', 'lc', '碳酸锂期权', 2, GFEX_BANDS, 'metal'),
  },
  {
    id: 'ps',
    name: '多晶硅',
    tick: 5,
    multiplier: 3,
    night: null,
    limitPct: 0.09,
    refPrice: 52000,
    vol: 0.45,
    option: option('GFEX', 'ps', '多晶硅期权', 1, GFEX_BANDS, 'metal'),
  },
]);

/** Every product of the catalogue, grouped by exchange in EXCHANGE_IDS order. */
export const PRODUCTS: readonly ProductSpec[] = [...SHFE, ...DCE, ...CZCE, ...CFFEX, ...INE, ...GFEX];
