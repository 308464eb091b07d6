import { useComputedColorScheme, useViewportSize } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import type { ClientCurve } from '../shared/curves/curveStore';
import { chartDrawn, exposeChart } from '../shared/testHooks';
import { buildChartOption, maxDotsFor } from './chartOption';

// Tree-shaken echarts: only what a line chart with grid, tooltip and legend on canvas needs.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const REPLACE_SERIES = ['series'];
/** As big as its container (echarts-for-react resizes the chart with it). */
const STYLE = { height: '100%', width: '100%' };

/** The curve chart; loaded on demand, so echarts is fetched only once there is something to draw. */
export default function VolatilityChart({
  curves,
  selectedLabels,
}: {
  curves: readonly ClientCurve[];
  selectedLabels: readonly string[];
}) {
  const dark = useComputedColorScheme('light') === 'dark';
  // The chart is as wide as the page.
  const maxDots = maxDotsFor(useViewportSize().width || window.innerWidth);
  const option = useMemo(() => buildChartOption(curves, selectedLabels, maxDots), [curves, selectedLabels, maxDots]);

  // Runs after the chart's own update (children commit first), i.e. after setOption has drawn.
  useLayoutEffect(() => chartDrawn(), [option]);
  useEffect(() => () => exposeChart(undefined), []);

  return (
    <div role="img" aria-label={zh.volatility.chart} data-testid="volatility-chart" style={STYLE}>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        replaceMerge={REPLACE_SERIES}
        theme={dark ? 'dark' : undefined}
        style={STYLE}
        onChartReady={exposeChart}
      />
    </div>
  );
}
