/** The date fields' calendar (issue 29 item 8): Chinese whatever the browser's own language. */
export const dates = {
  placeholder: '年-月-日',
  /** The calendar's header (dayjs format): 2026年十二月. */
  monthLabel: 'YYYY年MMMM',
  dayLabel: (y: number, m: number, d: number) => `${y}年${m}月${d}日`,
  ariaLabels: {
    monthLevelControl: '选择月份',
    yearLevelControl: '选择年份',
    nextMonth: '下个月',
    previousMonth: '上个月',
    nextYear: '下一年',
    previousYear: '上一年',
    nextDecade: '下一个十年',
    previousDecade: '上一个十年',
  },
} as const;
