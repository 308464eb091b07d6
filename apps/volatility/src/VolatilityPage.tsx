import { Box, Button, Drawer, useMediaQuery } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { useEffect, useState } from 'react';
import { useSearchParams } from '@pfp/router';
import { ChartArea, loadChart } from './chart/ChartArea';
import { CHART_MIN_HEIGHT } from './chart/chartOption';
import { DEFAULT_CURVE_TYPE_IDS } from './shared/curves/curveTypes';
import { useCurveFeed } from './shared/curves/useCurveFeed';
import { selectionFromSearch, withSelection, type MarketSelection } from './filters/selection';
import { TopBar } from './filters/TopBar';
import { SmilePanel } from './smile/SmilePanel';

/** The fit panel's width beside the chart on a wide screen. */
const PANEL_WIDTH = 440;

/**
 * SPEC "Volatility curve page": the top bar and the live curve chart below it, filling the viewport
 * (a column: the bar as tall as it wraps to, the chart the rest). The smile fit (docs/smile.md) sits beside the
 * chart on a wide screen; on a narrower one a button opens it in a drawer, so the chart keeps the viewport's height.
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

  const wide = useMediaQuery('(min-width: 75em)') ?? false;
  const [fitOpen, setFitOpen] = useState(false);

  const onSelection = (next: MarketSelection) => setSearch((prev) => withSelection(prev, next), { replace: true });

  return (
    <Box h="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <TopBar
        selection={selection}
        onSelection={onSelection}
        curveTypeIds={curveTypeIds}
        onCurveTypeIds={setCurveTypeIds}
      />
      <Box style={{ flex: 1, minHeight: CHART_MIN_HEIGHT, display: 'flex' }}>
        <Box style={{ flex: 1, minWidth: 0, position: 'relative' }}>
          <ChartArea feed={feed} />
          {selection.future && !wide && (
            <Button
              size="compact-xs"
              variant="light"
              pos="absolute"
              bottom={4}
              right={4}
              onClick={() => setFitOpen(true)}
            >
              {zh.smile.open}
            </Button>
          )}
        </Box>
        {selection.future && wide && (
          <Box w={PANEL_WIDTH} style={{ flex: 'none', borderLeft: '1px solid var(--mantine-color-default-border)' }}>
            <SmilePanel future={selection.future} />
          </Box>
        )}
      </Box>
      {selection.future && !wide && (
        <Drawer opened={fitOpen} onClose={() => setFitOpen(false)} position="bottom" size="85%" title={zh.smile.title}>
          <Box h="70dvh">
            <SmilePanel future={selection.future} withTitle={false} />
          </Box>
        </Drawer>
      )}
    </Box>
  );
}
