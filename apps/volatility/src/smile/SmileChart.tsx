import { useComputedColorScheme } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { SmileChain } from '@pfp/contract';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useMemo } from 'react';
import { volatilityTestHooks } from '../shared/testHooks';
import { buildSmileOption } from './smileChartOption';

echarts.use([LineChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const STYLE = { height: '100%', width: '100%' };

/** The selected chain's fit: market points and the fitted line (loaded with the curve chart's echarts). */
export default function SmileChart({ chain }: { chain: SmileChain }) {
  const dark = useComputedColorScheme('light') === 'dark';
  const option = useMemo(() => buildSmileOption(chain), [chain]);
  useEffect(
    () => () => {
      const hooks = volatilityTestHooks();
      if (hooks) hooks.fitChart = undefined;
    },
    [],
  );
  return (
    <div role="img" aria-label={zh.smile.chart} data-testid="smile-chart" style={STYLE}>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        theme={dark ? 'dark' : undefined}
        style={STYLE}
        onChartReady={(instance) => {
          const hooks = volatilityTestHooks();
          if (hooks) hooks.fitChart = instance;
        }}
      />
    </div>
  );
}
