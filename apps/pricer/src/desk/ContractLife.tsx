import { Button, Group, List, Stack, Table, Text } from '@pfp/mantine';
import { formatBasis, formatDateTime, formatLotsWithUnits, formatNumber, formatPrice, zh } from '@pfp/i18n';
import type { ContractHistory, ContractSchedule, RollConfirmation } from '@pfp/contract';
import { AverageScheduleTable } from '@pfp/ui';
import { useState } from 'react';

const L = zh.lifecycle.ui;
const D = L.detailDialog;
const C = L.confirmation;

/** 均价点价 on the desk (issue 32): the running average and each trading day's planned and fixed lots. */
export function AverageSchedule({ schedule }: { schedule: ContractSchedule }) {
  return (
    <Stack gap="xs" data-testid="average-schedule">
      <Group justify="space-between">
        <Stack gap={2}>
          {schedule.average_basis ? (
            <Text size="sm" fw={600} data-testid="average-basis">
              {zh.averageBasis.line(schedule.average_basis)}
            </Text>
          ) : null}
          <Text size="sm" c="dimmed">
            {zh.averageBasis.window(
              schedule.average_start ?? '',
              schedule.average_end ?? '',
              schedule.average_basis ?? null,
              schedule.fixing_time,
            )}
          </Text>
        </Stack>
        <Text size="sm" fw={700} data-testid="running-average">
          {schedule.avg_price === null ? D.noFills : D.runningAverage(formatPrice(schedule.avg_price))}
        </Text>
      </Group>
      {/* Scrolls sideways on a phone inside the table (its day column stays). */}
      <AverageScheduleTable
        basis={schedule.average_basis ?? null}
        days={schedule.days}
        renderStatus={(d) => (
          <Text span size="sm" fw={d.status === 'filled' ? 600 : 400}>
            {zh.lifecycle.scheduleStatus[d.status]}
          </Text>
        )}
      />
    </Stack>
  );
}

function RollConfirmationTable({ roll }: { roll: RollConfirmation }) {
  const rows: [string, string][] = [
    [C.no, roll.confirmation_no],
    [C.from, roll.from_instrument_id],
    [C.to, roll.to_instrument_id],
    [C.lots, formatLotsWithUnits(roll.quantity, roll.multiplier, roll.unit)],
    [C.oldBasis, formatBasis(roll.old_basis)],
    [C.spread, formatBasis(roll.spread)],
    [C.newBasis, formatBasis(roll.new_basis)],
    [C.fee, `${formatNumber(roll.fee, 2)} 元`],
    [C.deadline, roll.fixing_deadline],
  ];
  return (
    <Table withTableBorder withColumnBorders data-testid="roll-confirmation" aria-label={C.title}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={110}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Prints one 转月确认单 alone: a window with just its table (the browser's print dialog). */
function printConfirmation(id: string) {
  const node = document.getElementById(id);
  const w = window.open('', '_blank', 'width=720,height=640');
  if (!node || !w) return;
  w.document.title = C.title;
  w.document.body.innerHTML = `<h2>${C.title}</h2>${node.outerHTML}`;
  w.print();
}

/** The contract's life, oldest first: created, fixes, rolls (with the printable 转月确认单), extensions. */
export function ContractHistoryList({ history }: { history: ContractHistory }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <List size="sm" spacing={6} data-testid="contract-history">
      {history.items.map((e, i) => (
        <List.Item key={i}>
          <Text span size="sm" c="dimmed">
            {formatDateTime(e.at)}
          </Text>{' '}
          <Text span size="sm">
            {e.text}
            {e.fee > 0 ? `，${zh.lifecycle.history.fee(formatNumber(e.fee, 2))}` : ''}
          </Text>
          {e.roll ? (
            <Stack gap={4} mt={4}>
              <Group gap="xs">
                <Button size="compact-xs" variant="light" onClick={() => setOpen(open === i ? null : i)}>
                  {C.title}
                </Button>
                {open === i ? (
                  <Button size="compact-xs" variant="default" onClick={() => printConfirmation(`roll-${i}`)}>
                    {D.print}
                  </Button>
                ) : null}
              </Group>
              {open === i ? (
                <div id={`roll-${i}`}>
                  <RollConfirmationTable roll={e.roll} />
                </div>
              ) : null}
            </Stack>
          ) : null}
        </List.Item>
      ))}
    </List>
  );
}
