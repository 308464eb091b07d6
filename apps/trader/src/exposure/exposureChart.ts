import type { EChartsCoreOption } from 'echarts/core';
import type { ExposureItem } from '@pfp/contract';

export interface MonthBuckets {
  months: string[];
  fixed: number[];
  unfixed: number[];
}

/** Lots per delivery month (buy and sell together): what is fixed and what may still be fixed. */
export function byDeliveryMonth(items: readonly ExposureItem[], unknownMonth: string): MonthBuckets {
  const sums = new Map<string, { fixed: number; unfixed: number }>();
  for (const i of items) {
    const key = i.delivery_month ?? unknownMonth;
    const s = sums.get(key) ?? { fixed: 0, unfixed: 0 };
    s.fixed += i.fixed_buy + i.fixed_sell;
    s.unfixed += i.unfixed_buy + i.unfixed_sell;
    sums.set(key, s);
  }
  const months = [...sums.keys()].sort();
  return {
    months,
    fixed: months.map((m) => sums.get(m)!.fixed),
    unfixed: months.map((m) => sums.get(m)!.unfixed),
  };
}

/** A stacked bar chart: fixed and unfixed lots per delivery month. */
export function exposureChartOption(b: MonthBuckets, names: { fixed: string; unfixed: string }): EChartsCoreOption {
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 40, bottom: 32 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: b.months },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: names.fixed, type: 'bar', stack: 'lots', data: b.fixed, itemStyle: { color: '#1971c2' } },
      { name: names.unfixed, type: 'bar', stack: 'lots', data: b.unfixed, itemStyle: { color: '#adb5bd' } },
    ],
  };
}
