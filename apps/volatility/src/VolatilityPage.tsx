import { Box } from '@pfp/mantine';
import { useEffect, useState } from 'react';
import { useSearchParams } from '@pfp/router';
import { ChartArea, loadChart } from './chart/ChartArea';
import { CHART_MIN_HEIGHT } from './chart/chartOption';
import { DEFAULT_CURVE_TYPE_IDS } from './shared/curves/curveTypes';
import { useCurveFeed } from './shared/curves/useCurveFeed';
import { selectionFromSearch, withSelection, type MarketSelection } from './filters/selection';
import { TopBar } from './filters/TopBar';

/**
 * SPEC "Volatility curve page": the top bar and the live curve chart below it, filling the viewport
 * (a column: the bar as tall as it wraps to, the chart the rest).
 */
export function VolatilityPage() {
  const [search, setSearch] = useSearchParams();
  const selection = selectionFromSearch(search);
  // SPEC §4: the first load selects call-last and put-last.
  const [curveTypeIds, setCurveTypeIds] = useState<string[]>(() => [...DEFAULT_CURVE_TYPE_IDS]);
  const feed = useCurveFeed(selection.future, curveTypeIds);

  // Fetch the chart code as soon as there will be a chart, in parallel with the subscription.
  const hasFuture = selection.future !== null;
  useEffect(() => {
    if (hasFuture) void loadChart();
  }, [hasFuture]);

  const onSelection = (next: MarketSelection) => setSearch((prev) => withSelection(prev, next), { replace: true });

  return (
    <Box h="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <TopBar
        selection={selection}
        onSelection={onSelection}
        curveTypeIds={curveTypeIds}
        onCurveTypeIds={setCurveTypeIds}
      />
      <Box style={{ flex: 1, minHeight: CHART_MIN_HEIGHT }}>
        <ChartArea feed={feed} />
      </Box>
    </Box>
  );
}
