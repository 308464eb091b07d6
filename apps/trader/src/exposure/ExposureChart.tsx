import { zh } from '@pfp/i18n';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import type { ExposureItem } from '@pfp/contract';
import { byDeliveryMonth, exposureChartOption } from './exposureChart';

// Tree-shaken echarts: a bar chart with grid, tooltip and legend on canvas.
echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const t = zh.fixing.exposure;
const STYLE = { height: 280, width: '100%' };

/** Loaded on demand (its own chunk): echarts is fetched only on the exposure page. */
export default function ExposureChart({ items }: { items: readonly ExposureItem[] }) {
  const buckets = useMemo(() => byDeliveryMonth(items, '-'), [items]);
  const option = useMemo(() => exposureChartOption(buckets, { fixed: t.fixed, unfixed: t.unfixed }), [buckets]);
  return (
    <div
      role="img"
      aria-label={t.chartLabel}
      data-testid="exposure-chart"
      data-months={buckets.months.join(',')}
      data-fixed={buckets.fixed.join(',')}
      data-unfixed={buckets.unfixed.join(',')}
    >
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={STYLE} />
    </div>
  );
}
