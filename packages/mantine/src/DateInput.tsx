import { TextInput } from '@mantine/core';
import type { DateInputProps } from '@mantine/dates';
import { lazy, Suspense } from 'react';

const LazyDateInput = lazy(() => import('./dates'));

/**
 * @mantine/dates' DateInput, its code (~13 KB gzipped with dayjs) fetched on first use so pages
 * without a date field load no more than before. Until it arrives, the same field read-only.
 */
export function DateInput(props: DateInputProps) {
  const fallback = (
    <TextInput
      label={props.label}
      description={props.description}
      error={props.error}
      withAsterisk={props.withAsterisk}
      size={props.size}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      value={typeof props.value === 'string' ? props.value : ''}
      readOnly
    />
  );
  return (
    <Suspense fallback={fallback}>
      <LazyDateInput {...props} />
    </Suspense>
  );
}
