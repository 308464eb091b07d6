import { useMemo } from 'react';
import { useElementSize } from '@pfp/mantine';
import type { VisibilityState } from '@tanstack/react-table';
import { widthOf } from './columnDefs';
import type { DataTableColumn } from './columns';
import { fitColumns } from './fitColumns';

/**
 * Measures the table's box and hides low-priority columns that would not fit (see fitColumns).
 * Returns the ref for the box and TanStack's column visibility.
 */
export function useFittedColumns<T>(columns: readonly DataTableColumn<T>[], fixedWidth: number) {
  const { ref, width } = useElementSize<HTMLDivElement>();
  const hiddenKey = useMemo(() => {
    const fit = columns.map((c) => ({ id: c.field, width: widthOf(c), priority: c.priority ?? 1 }));
    return [...fitColumns(fit, fixedWidth, Math.floor(width))].join('\n');
  }, [columns, fixedWidth, width]);
  // Keyed by the hidden ids so that a resize that hides nothing new keeps the same object.
  const visibility = useMemo<VisibilityState>(
    () => Object.fromEntries(hiddenKey === '' ? [] : hiddenKey.split('\n').map((id) => [id, false])),
    [hiddenKey],
  );
  return { ref, visibility };
}
