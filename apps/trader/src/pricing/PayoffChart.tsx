import { zh } from '@pfp/i18n';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { payoffLines, type PayoffTerms } from './payoff';

// Tree-shaken echarts: two lines with grid, tooltip and legend on canvas.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const t = zh.structurePricing;
const STYLE = { height: 300, width: '100%' };

/** Loaded on demand (its own chunk): echarts is fetched only once a price is shown. */
export default function PayoffChart({ terms, unit }: { terms: PayoffTerms; unit: string }) {
  const lines = useMemo(() => payoffLines(terms), [terms]);
  const xName =
    terms.kind === 'asian'
      ? t.payoffAverageX(unit)
      : terms.kind === 'accumulator'
        ? t.payoffLevelX(unit)
        : t.payoffX(unit);
  const option = useMemo(
    () => ({
      animation: false,
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? v.toFixed(2) : String(v)) },
      legend: { top: 0, data: [t.embedded, t.plain] },
      grid: { left: 16, right: 24, top: 64, bottom: 48, containLabel: true },
      xAxis: {
        type: 'value',
        name: xName,
        nameLocation: 'middle',
        nameGap: 28,
        min: 'dataMin',
        max: 'dataMax',
        // On a phone the prices ran into one another: a label that would overlap the one before is left out.
        axisLabel: { hideOverlap: true },
      },
      yAxis: { type: 'value', name: t.payoffY(unit), scale: true },
      series: [
        {
          name: t.embedded,
          type: 'line',
          showSymbol: false,
          lineStyle: { width: 3 },
          data: lines.x.map((x, i) => [x, lines.embedded[i]]),
        },
        {
          name: t.plain,
          type: 'line',
          showSymbol: false,
          lineStyle: { type: 'dashed' },
          data: lines.x.map((x, i) => [x, lines.plain[i]]),
        },
      ],
    }),
    [lines, unit, xName],
  );
  return (
    <div role="img" aria-label={t.payoffLabel} data-testid="payoff-chart" data-points={lines.x.length}>
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={STYLE} />
    </div>
  );
}
