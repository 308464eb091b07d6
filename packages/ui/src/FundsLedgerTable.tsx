import { Table } from '@pfp/mantine';
import type { FundsEntry } from '@pfp/contract';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';

const t = zh.margin;

/**
 * 资金流水 (docs/margin.md): funds entries as the trader's ledger dialog and the customer's history
 * show them — time, kind, signed amount (a withdrawal in red) and the balance after it, in 元.
 */
export function FundsLedgerTable({ items, label }: { items: FundsEntry[]; label: string }) {
  const d = t.ledgerDialog;
  return (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{d.time}</Table.Th>
          <Table.Th>{d.kind}</Table.Th>
          <Table.Th ta="right">{d.amount}</Table.Th>
          <Table.Th ta="right">{d.balanceAfter}</Table.Th>
          <Table.Th>{d.note}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((e) => (
          <Table.Tr key={e.id}>
            <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
            <Table.Td>{t.kinds[e.kind] ?? e.kind}</Table.Td>
            <Table.Td ta="right" c={e.amount < 0 ? '#c92a2a' : undefined}>
              {formatNumber(e.amount, 2)}
            </Table.Td>
            <Table.Td ta="right">{formatNumber(e.balance_after, 2)}</Table.Td>
            <Table.Td>{e.note}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
