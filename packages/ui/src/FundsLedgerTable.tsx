import { Table } from '@pfp/mantine';
import type { FundsEntry } from '@pfp/contract';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';

const t = zh.margin;

/**
 * 资金流水 (docs/margin.md): funds entries as the trader's ledger dialog and the customer's history
 * show them — time, kind, signed amount (a withdrawal in red) and the balance after it, in 元; the trader's
 * (`staff`) also the 银行流水号, who entered it and who approved it.
 */
export function FundsLedgerTable({ items, label, staff }: { items: FundsEntry[]; label: string; staff?: boolean }) {
  const d = t.ledgerDialog;
  const r = zh.roles.ledger;
  const table = (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{d.time}</Table.Th>
          <Table.Th>{d.kind}</Table.Th>
          <Table.Th ta="right">{d.amount}</Table.Th>
          <Table.Th ta="right">{d.balanceAfter}</Table.Th>
          <Table.Th>{d.note}</Table.Th>
          {staff ? (
            <>
              <Table.Th>{r.bankRef}</Table.Th>
              <Table.Th>{r.maker}</Table.Th>
              <Table.Th>{r.checker}</Table.Th>
            </>
          ) : null}
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
            {staff ? (
              <>
                <Table.Td>{e.bank_ref ?? ''}</Table.Td>
                <Table.Td>{e.maker_name ?? e.actor}</Table.Td>
                <Table.Td>{e.checker_name ?? e.checker ?? ''}</Table.Td>
              </>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  // The trader's eight columns scroll sideways on a phone rather than squeeze.
  return staff ? <Table.ScrollContainer minWidth={760}>{table}</Table.ScrollContainer> : table;
}
