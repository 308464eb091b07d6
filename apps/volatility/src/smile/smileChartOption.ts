import { formatNumber, formatPercent, zh } from '@pfp/i18n';
import type { SmileChain } from '@pfp/contract';
// Types only: this module stays free of echarts code.
import type { EChartsCoreOption } from 'echarts/core';

const t = zh.smile;
/** σ as a percentage with 2 decimals, as on the curve chart. */
const formatVol = (sigma: number) => formatPercent(sigma, 2);
const splitLine = { show: true, lineStyle: { type: [3, 3] } };

/** One chain's fit: the market points as dots, the served slice as a line over them (x strike, y vol). */
export function buildSmileOption(chain: SmileChain): EChartsCoreOption {
  return {
    animation: false,
    backgroundColor: 'transparent',
    legend: { top: 0, data: [t.marketPoints, t.fitted] },
    grid: { top: 32, right: 12, left: 8, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    xAxis: {
      type: 'value',
      name: zh.volatility.strike,
      nameLocation: 'middle',
      nameGap: 28,
      min: 'dataMin',
      max: 'dataMax',
      splitLine,
      axisLabel: { formatter: (v: number) => formatNumber(v), hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      name: zh.volatility.impliedVol,
      nameLocation: 'middle',
      nameGap: 58,
      scale: true,
      splitLine,
      axisLabel: { formatter: (v: number) => formatVol(v) },
    },
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName?: string; value?: unknown }) =>
        Array.isArray(p.value)
          ? t.tooltip(p.seriesName ?? '', formatNumber(Number(p.value[0])), formatVol(Number(p.value[1])))
          : '',
    },
    series: [
      {
        id: 'points',
        name: t.marketPoints,
        type: 'scatter',
        data: chain.points,
        symbolSize: 7,
        color: '#1c7ed6',
      },
      {
        id: 'fitted',
        name: t.fitted,
        type: 'line',
        data: chain.fitted,
        showSymbol: false,
        smooth: false,
        color: '#e8590c',
        lineStyle: { width: 2 },
      },
    ],
  };
}
