/**
 * The exchanges' calendar as data: the days the Chinese futures exchanges (SHFE, INE, DCE, CZCE,
 * GFEX, and CFFEX) are shut on a weekday, by the State Council's holiday notices.
 *
 * Sources (docs/calendar.md):
 * - 2025: 国务院办公厅关于2025年部分节假日安排的通知 (国办发明电〔2024〕12号),
 *   https://www.gov.cn/zhengce/content/202411/content_6986382.htm
 * - 2026: 国务院办公厅关于2026年部分节假日安排的通知 (国办发明电〔2025〕7号),
 *   https://www.gov.cn/zhengce/content/202511/content_7047090.htm — checked against the data of
 *   LKI/chinese-calendar (chinese_calendar/scripts/data.py, `_2026`, 2025-11-04).
 *
 * The exchanges follow the notice and never trade on a weekend, the notice's make-up working
 * weekends (调休上班, e.g. 2026-01-04, 2026-02-14, 2026-02-28) included, so only the weekdays of each
 * holiday are listed. 2027: the notice was not published when this was written (2026-11-28), so the
 * calendar ends at 2026-12-31 (the year-end rule of docs/calendar.md).
 */
export const CALENDAR_SOURCE = '国办发明电〔2024〕12号（2025年）、国办发明电〔2025〕7号（2026年）';

/** The exchanges' Chinese names, for the messages that name whose trading day a date is not. */
export const EXCHANGE_NAMES = {
  SHFE: '上海期货交易所',
  INE: '上海国际能源交易中心',
  DCE: '大连商品交易所',
  CZCE: '郑州商品交易所',
  GFEX: '广州期货交易所',
  CFFEX: '中国金融期货交易所',
} as const;

/** The first and last day the data covers ('YYYY-MM-DD'). */
export const CALENDAR_FROM = '2025-01-01';
export const CALENDAR_TO = '2026-12-31';

/** A holiday: its name and the weekdays the exchanges are shut for it. */
export interface HolidaySpan {
  name: string;
  /** The holiday's days as the notice gives them (first and last, weekends included). */
  from: string;
  to: string;
  /** The weekdays in it: no trading, and no night session the evening before. */
  closed: readonly string[];
}

export const HOLIDAYS: readonly HolidaySpan[] = [
  // 2025 (国办发明电〔2024〕12号)
  { name: '元旦', from: '2025-01-01', to: '2025-01-01', closed: ['2025-01-01'] },
  {
    name: '春节',
    from: '2025-01-28',
    to: '2025-02-04',
    closed: ['2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-03', '2025-02-04'],
  },
  { name: '清明节', from: '2025-04-04', to: '2025-04-06', closed: ['2025-04-04'] },
  { name: '劳动节', from: '2025-05-01', to: '2025-05-05', closed: ['2025-05-01', '2025-05-02', '2025-05-05'] },
  { name: '端午节', from: '2025-05-31', to: '2025-06-02', closed: ['2025-06-02'] },
  {
    name: '国庆节、中秋节',
    from: '2025-10-01',
    to: '2025-10-08',
    closed: ['2025-10-01', '2025-10-02', '2025-10-03', '2025-10-06', '2025-10-07', '2025-10-08'],
  },
  // 2026 (国办发明电〔2025〕7号)
  { name: '元旦', from: '2026-01-01', to: '2026-01-03', closed: ['2026-01-01', '2026-01-02'] },
  {
    name: '春节',
    from: '2026-02-15',
    to: '2026-02-23',
    closed: ['2026-02-16', '2026-02-17', '2026-02-18', '2026-02-19', '2026-02-20', '2026-02-23'],
  },
  { name: '清明节', from: '2026-04-04', to: '2026-04-06', closed: ['2026-04-06'] },
  { name: '劳动节', from: '2026-05-01', to: '2026-05-05', closed: ['2026-05-01', '2026-05-04', '2026-05-05'] },
  { name: '端午节', from: '2026-06-19', to: '2026-06-21', closed: ['2026-06-19'] },
  { name: '中秋节', from: '2026-09-25', to: '2026-09-27', closed: ['2026-09-25'] },
  {
    name: '国庆节',
    from: '2026-10-01',
    to: '2026-10-07',
    closed: ['2026-10-01', '2026-10-02', '2026-10-05', '2026-10-06', '2026-10-07'],
  },
];
