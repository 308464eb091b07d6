import { useEffect, useState } from 'react';
import { volatilityCurveApi } from '../api';
import { volatilityTestHooks } from '../testHooks';
import { CurveFeed } from './curveFeed';
import { curveTypesOf } from './curveTypes';

/** The page's curve feed: follows the selection, and stops (unsubscribe, no polling) on leaving. */
export function useCurveFeed(future: string | null, curveTypeIds: readonly string[]) {
  const [feed] = useState(() => new CurveFeed(volatilityCurveApi()));
  const ids = curveTypeIds.join(',');

  useEffect(() => {
    feed.select(future, curveTypesOf(ids ? ids.split(',') : []));
  }, [feed, future, ids]);

  useEffect(() => {
    const hooks = volatilityTestHooks();
    if (hooks) hooks.push = (data) => feed.push(data);
    return () => {
      if (hooks) hooks.push = undefined;
      feed.stop();
    };
  }, [feed]);

  return feed;
}
