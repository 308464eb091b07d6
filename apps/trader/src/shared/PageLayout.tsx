import { Alert, SimpleGrid, Stack } from '@pfp/mantine';
import type { ReactNode } from 'react';
import { PageHeading } from './PageHeading';
import { StatCard } from './StatCard';
import { TONE } from './tones';

/** One figure of the stats row. */
export interface Stat {
  testId: string;
  label: string;
  value: ReactNode;
}

export interface PageLayoutProps {
  /** The section title (only where the shell's header does not name the page already). */
  title?: string;
  subtitle: string;
  actions?: ReactNode;
  /** The text of a failed load (the stats' or the page's), shown above the stats. */
  error?: string | undefined;
  /** What needs the trader's attention first (margin calls), between the error and the stats. */
  banner?: ReactNode;
  /** The stats row: its accessible name and figures, one column each from md up. */
  stats?: { label: string; items: Stat[] };
  children: ReactNode;
}

/** A page of the console: its heading, a load error, the stats cards, then the page's body. */
export function PageLayout({ title, subtitle, actions, error, banner, stats, children }: PageLayoutProps) {
  return (
    <Stack gap="md">
      <PageHeading title={title} subtitle={subtitle} actions={actions} />
      {error ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      {banner}
      {stats ? (
        <SimpleGrid cols={{ base: 2, md: stats.items.length }} spacing="md" aria-label={stats.label}>
          {stats.items.map((stat) => (
            <StatCard key={stat.testId} {...stat} />
          ))}
        </SimpleGrid>
      ) : null}
      {children}
    </Stack>
  );
}

/** A stat's figure once loaded, '-' until then. */
export const figure = <T,>(data: T | undefined, format: (data: T) => string): string =>
  data === undefined ? '-' : format(data);
