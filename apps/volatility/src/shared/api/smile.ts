import { routeCaller, serverMessage } from '@pfp/api-client';
import type { marketRoutes } from '@pfp/contract';
import { marketPaths } from '@pfp/contract/paths';
import { zh } from '@pfp/i18n';
import { useQuery } from '@tanstack/react-query';
import { baseHttpApi } from './clients';

/** The server refits every 5 s (docs/smile.md). */
const REFRESH_MS = 5_000;

/** The fitted smiles of the selected future's product (docs/smile.md), refreshed while the page shows them. */
export function useSmile(future: string | null) {
  return useQuery({
    queryKey: ['smile', future],
    queryFn: ({ signal }) =>
      routeCaller<typeof marketRoutes>(baseHttpApi(), marketPaths)(
        'volatilitySmile',
        { symbol: future! },
        signal,
      ).catch(
        // The server's Chinese reason (a fit that failed: 503, docs/smile.md), never the client's English one.
        (error: unknown) => {
          throw new Error(serverMessage(error) ?? zh.smile.loadFailed, { cause: error });
        },
      ),
    enabled: future !== null,
    refetchInterval: REFRESH_MS,
  });
}
