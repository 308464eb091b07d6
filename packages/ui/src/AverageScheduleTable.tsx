import { Table } from '@pfp/mantine';
import type { ScheduleDay } from '@pfp/contract';
import { formatPrice, zh } from '@pfp/i18n';
import type { ReactNode } from 'react';

const D = zh.lifecycle.ui.detailDialog;

/** The day stays at the left while the table scrolls sideways on a phone: each row still says which day it is. */
const DAY_COLUMN = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  backgroundColor: 'var(--mantine-color-body)',
} as const;

/**
 * A 均价点价 contract's schedule (issue 32), the same on the desk and in the trader's 详情: each trading
 * day's planned and fixed lots, the day's price and the running average; the status as each app shows it.
 */
export function AverageScheduleTable({
  days,
  renderStatus,
  basis = null,
}: {
  days: readonly ScheduleDay[];
  renderStatus: (day: ScheduleDay) => ReactNode;
  /** 均价依据 (issue 43): the price column says 结算价 or 成交价. */
  basis?: 'settlement' | 'fills' | null;
}) {
  // On a phone the six columns broke dates and lots over lines and ran the last past the card: each cell
  // on one line, the table scrolled sideways inside its card when it is wider.
  return (
    <Table.ScrollContainer
      minWidth={480}
      // The scrolled region takes the keyboard's focus (axe scrollable-region-focusable).
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': D.schedule } }}
    >
      <Table striped withTableBorder style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={DAY_COLUMN}>{D.columns.date}</Table.Th>
            <Table.Th>{D.columns.planned}</Table.Th>
            <Table.Th>{D.columns.fixed}</Table.Th>
            <Table.Th>{basis ? zh.averageBasis.priceColumn[basis] : D.columns.price}</Table.Th>
            <Table.Th>{D.columns.average}</Table.Th>
            <Table.Th>{D.columns.status}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {days.map((d) => (
            <Table.Tr key={d.date}>
              <Table.Td style={DAY_COLUMN}>{d.date}</Table.Td>
              <Table.Td>{`${d.planned_lots} 手`}</Table.Td>
              <Table.Td>{`${d.fixed_lots} 手`}</Table.Td>
              <Table.Td>{d.price === null ? '-' : formatPrice(d.price)}</Table.Td>
              <Table.Td>{d.average_so_far === null ? '-' : formatPrice(d.average_so_far)}</Table.Td>
              <Table.Td>{renderStatus(d)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
