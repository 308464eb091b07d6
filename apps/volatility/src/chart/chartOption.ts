import { formatNumber, formatPercent, zh } from '@pfp/i18n';
// Types only: this module stays free of echarts code, so it is cheap to test and to import.
import type { EChartsCoreOption } from 'echarts/core';
import { alignCurves, sortBySelection, type ClientCurve } from '../shared/curves/curveStore';
import { dashArray } from '../shared/curves/curveTypes';

const t = zh.volatility;

/** SPEC §9 volatility chart constants. */
export const CHART = {
  lineWidth: 2,
  /** Dot radius 3 and active dot radius 5, as echarts symbol diameters. */
  symbolSize: 6,
  activeSymbolSize: 10,
  gridDash: [3, 3],
  margin: { top: 2, right: 5, left: 5, bottom: 15 },
  legendHeight: 50,
  /**
   * Dots are drawn only while strikes are at least this far apart on screen; closer, 6px dots
   * merge into a thick line and cost most of a redraw (1,600 symbols for 8 × 200 strikes). The
   * hovered point still gets its active dot.
   */
  minDotSpacingPx: 8,
} as const;

/** How many strikes a chart of this width can show with dots. */
export const maxDotsFor = (chartWidthPx: number) => Math.floor(chartWidthPx / CHART.minDotSpacingPx);

/**
 * SPEC §2: the chart fills the viewport below the top bar (55px on a wide screen; on a phone the bar
 * wraps and is taller), at least 100px.
 */
export const CHART_MIN_HEIGHT = 100;

/** σ is a fraction (0.2345); it is shown as a percentage with 2 decimals (23.45%). */
export const formatVol = (sigma: number) => formatPercent(sigma, 2);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What the tooltip formatter receives per series (the part of echarts' params we read). */
export interface TooltipItem {
  seriesName?: string;
  color?: unknown;
  value?: unknown;
}

/**
 * SPEC §2 tooltip: 'strike: {x}', then one coloured line per curve in the order of the selected
 * curve types (unmatched last), σ with 2 decimals; curves without a value at that strike are left out.
 */
export function tooltipHtml(items: readonly TooltipItem[], selectedLabels: readonly string[]): string {
  const first = items[0]?.value;
  const x = Array.isArray(first) ? first[0] : undefined;
  if (typeof x !== 'number') return '';
  const lines = sortBySelection(items, (i) => i.seriesName ?? '', selectedLabels).flatMap((item) => {
    const y = Array.isArray(item.value) ? item.value[1] : undefined;
    if (typeof y !== 'number' || !Number.isFinite(y)) return [];
    const color = typeof item.color === 'string' ? item.color : '#999';
    return [
      `<div style="display:flex;align-items:center;gap:6px;color:${escapeHtml(color)}">` +
        `<span style="display:inline-block;width:8px;height:8px;border-radius:50%;background:${escapeHtml(color)}"></span>` +
        `${escapeHtml(item.seriesName ?? '')}: ${escapeHtml(formatVol(y))}</div>`,
    ];
  });
  const heading = `<div style="font-weight:600;margin-bottom:4px">${escapeHtml(t.tooltipStrike(formatNumber(x)))}</div>`;
  return `<div data-testid="volatility-tooltip">${heading}${lines.join('')}</div>`;
}

const splitLine = { show: true, lineStyle: { type: [...CHART.gridDash] } };

/**
 * The echarts option for the held curves (SPEC §2/§9): x = strike from data min to max, y = σ,
 * one line per curve with its colour and dash, 0 treated as missing and lines connected over
 * gaps, linear, no animation. Series carry ids so `replaceMerge: ['series']` drops removed curves.
 */
export function buildChartOption(
  curves: readonly ClientCurve[],
  selectedLabels: readonly string[],
  maxDots = Number.POSITIVE_INFINITY,
): EChartsCoreOption {
  const { xs, values } = alignCurves(curves);
  const showSymbol = xs.length <= maxDots;
  return {
    animation: false,
    backgroundColor: 'transparent',
    legend: {
      top: CHART.margin.top,
      height: CHART.legendHeight,
      type: 'scroll',
      data: curves.map((c) => c.label),
    },
    grid: {
      top: CHART.margin.top + CHART.legendHeight,
      right: CHART.margin.right,
      left: CHART.margin.left,
      bottom: CHART.margin.bottom,
      // Room for the axis labels and names inside the margins.
      outerBoundsMode: 'same',
      outerBoundsContain: 'all',
    },
    xAxis: {
      type: 'value',
      name: t.strike,
      nameLocation: 'middle',
      nameGap: 28,
      min: 'dataMin',
      max: 'dataMax',
      splitLine,
      axisLabel: { formatter: (v: number) => formatNumber(v), hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      name: t.impliedVol,
      nameLocation: 'middle',
      nameGap: 58,
      scale: true,
      splitLine,
      axisLabel: { formatter: (v: number) => formatVol(v) },
    },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line' },
      formatter: (params: TooltipItem | TooltipItem[]) =>
        tooltipHtml(Array.isArray(params) ? params : [params], selectedLabels),
    },
    series: curves.map((c, k) => {
      const dash = dashArray(c.strokeDasharray);
      const ys = values[k]!;
      return {
        id: c.key,
        name: c.label,
        type: 'line',
        data: xs.map((x, i) => [x, ys[i]]),
        connectNulls: true,
        smooth: false,
        symbol: 'circle',
        symbolSize: CHART.symbolSize,
        showSymbol,
        color: c.borderColor,
        lineStyle: { width: CHART.lineWidth, color: c.borderColor, type: dash ?? 'solid' },
        itemStyle: { color: c.borderColor },
        emphasis: { scale: CHART.activeSymbolSize / CHART.symbolSize },
      };
    }),
  };
}
