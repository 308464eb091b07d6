import { useComputedColorScheme } from '@pfp/mantine';
import type { CSSProperties, ReactNode } from 'react';
import { DIMMED } from './tones';

/** Raises Mantine's dimmed text colour to AA contrast for everything rendered inside. */
export function ContrastScope({ children }: { children: ReactNode }) {
  const scheme = useComputedColorScheme('light');
  const style = { '--mantine-color-dimmed': DIMMED[scheme] } as CSSProperties;
  return (
    <div style={style} data-testid="trader-app">
      {children}
    </div>
  );
}
