import { Group, Loader, Table, Text } from '@pfp/mantine';
import type { CSSProperties, ReactNode } from 'react';

/** The actions column stays in view (sticky right) however narrow the screen. */
export const STICKY: CSSProperties = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
};

export interface DeskTableProps {
  label: string;
  /** Wide screens: a minimum width (narrower scrolls) and roomier cells. */
  wide: boolean;
  loading: boolean;
  highlightOnHover?: boolean;
  head: { label: string; sticky?: boolean }[];
  /** The rows; none: a loader while loading, else `empty`. */
  rows: ReactNode[];
  empty: string;
  /** Shown beside the loader. */
  loadingText?: string;
}

/** A table of the desk (its orders, its conditional orders). */
export function DeskTable({ label, wide, loading, highlightOnHover, head, rows, empty, loadingText }: DeskTableProps) {
  return (
    <Table.ScrollContainer minWidth={wide ? 860 : 0}>
      <Table
        verticalSpacing="xs"
        horizontalSpacing={wide ? 'sm' : 6}
        striped
        highlightOnHover={highlightOnHover}
        aria-label={label}
        aria-busy={loading}
      >
        <Table.Thead>
          <Table.Tr>
            {head.map((h, i) => (
              <Table.Th key={i} style={{ whiteSpace: 'nowrap', ...(h.sticky ? STICKY : undefined) }}>
                {h.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length > 0 ? (
            rows
          ) : (
            <Table.Tr>
              <Table.Td colSpan={head.length}>
                {loading ? (
                  <Group justify="center" gap="xs">
                    <Loader size="sm" />
                    {loadingText ? <Text c="dimmed">{loadingText}</Text> : null}
                  </Group>
                ) : (
                  <Text c="dimmed" ta="center">
                    {empty}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
