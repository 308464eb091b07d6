import { Alert, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title, useMediaQuery } from '@pfp/mantine';
import type { FeeReceivable, Statement, StatementContract } from '@pfp/contract';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';
import type { ReactNode } from 'react';

const t = zh.statements;
const yuan = (n: number) => formatNumber(n, 2);
const fen = (n: number) => Math.round(n * 100);

/**
 * A table that may be wider than the screen: a keyboard can reach and scroll it (axe
 * scrollable-region-focusable), and a screen reader hears what it holds.
 */
function Scroll({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <div tabIndex={0} role="region" aria-label={label} style={{ overflowX: 'auto' }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}

/** One line of a balance: a label and an amount, the opening and closing in bold. */
function Line({ label, value, strong, testId }: { label: string; value: number; strong?: boolean; testId?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={testId}>
      <Text size="sm" fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 600 : undefined} c={value < 0 ? 'red.8' : undefined} ta="right">
        {yuan(value)}
      </Text>
    </Group>
  );
}

function Balanced({ ok, testId }: { ok: boolean; testId: string }) {
  return (
    <Text size="xs" c={ok ? 'teal.9' : 'red.8'} data-testid={testId}>
      {ok ? t.balanced : t.unbalanced}
    </Text>
  );
}

/** The customer's answer as both sides read it. */
export function StatementResponseBadge({ statement }: { statement: Statement }) {
  const r = statement.response;
  const r2 = t.response;
  if (!r)
    return (
      <Badge variant="outline" color="gray.8">
        {r2.pending}
      </Badge>
    );
  if (!r.current)
    return (
      <Badge variant="outline" color="orange.9">
        {r2.stale}
      </Badge>
    );
  const at = formatDateTime(r.created_at);
  return r.response === 'confirmed' ? (
    <Badge variant="filled" color="teal.9" style={{ textTransform: 'none', height: 'auto' }}>
      {r2.confirmed(at)}
    </Badge>
  ) : (
    <Alert color="orange" variant="light" p="xs">
      <Text size="sm">{r2.disputed(at, r.note)}</Text>
    </Alert>
  );
}

function FundsCard({ s }: { s: Statement }) {
  const f = s.funds;
  const d = t.funds;
  const ok =
    fen(f.opening) + fen(f.deposits) + fen(f.withdrawals) + fen(f.adjustments) + fen(f.fees_collected) ===
    fen(f.closing);
  return (
    <Card withBorder radius="md" p="sm" data-testid="statement-funds">
      <Stack gap={6}>
        <Title order={3} size="h5">
          {d.title}
        </Title>
        <Line label={d.opening} value={f.opening} strong />
        <Line label={d.deposits} value={f.deposits} />
        <Line label={d.withdrawals} value={f.withdrawals} />
        <Line label={d.adjustments} value={f.adjustments} />
        <Line label={d.feesCollected} value={f.fees_collected} />
        <Line label={d.closing} value={f.closing} strong testId="funds-closing" />
        <Balanced ok={ok} testId="funds-balanced" />
      </Stack>
    </Card>
  );
}

function FeesCard({ s }: { s: Statement }) {
  const f = s.fees;
  const d = t.fees;
  const ok = fen(f.opening) + fen(f.charged) - fen(f.collected) - fen(f.offset) - fen(f.waived) === fen(f.closing);
  return (
    <Card withBorder radius="md" p="sm" data-testid="statement-fees">
      <Stack gap={6}>
        <Title order={3} size="h5">
          {d.title}
        </Title>
        <Line label={d.opening} value={f.opening} strong />
        <Line label={d.charged} value={f.charged} />
        <Line label={d.collected} value={-f.collected} />
        <Line label={d.offset} value={-f.offset} />
        <Line label={d.waived} value={-f.waived} />
        <Line label={d.closing} value={f.closing} strong testId="fees-closing" />
        <Balanced ok={ok} testId="fees-balanced" />
      </Stack>
    </Card>
  );
}

type FeeActions = ((fee: FeeReceivable) => ReactNode) | undefined;

/** A fee as a phone shows it: what, how much and where it stands, then the trader's buttons. */
export function FeeBlock({ fee, actions, who }: { fee: FeeReceivable; actions?: FeeActions; who?: ReactNode }) {
  const d = t.fees;
  return (
    <Card withBorder radius="sm" p="xs" data-testid="fee-block">
      {who}
      <Text size="sm">
        {fee.contract_name} · {d.kinds[fee.kind] ?? fee.kind}
      </Text>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {`${yuan(fee.amount)} 元`}
        </Text>
        <Text size="sm">
          {d.statuses[fee.status] ?? fee.status}
          {fee.settle_note ? `（${fee.settle_note}）` : ''}
        </Text>
      </Group>
      <Text size="xs" c="gray.7">
        {formatDateTime(fee.created_at)}
      </Text>
      {actions && fee.status === 'open' ? <div style={{ marginTop: 6 }}>{actions(fee)}</div> : null}
    </Card>
  );
}

function FeeItems({ items, actions, phone }: { items: FeeReceivable[]; actions?: FeeActions; phone: boolean }) {
  const d = t.fees;
  if (!items.length)
    return (
      <Text size="sm" c="dimmed">
        {d.none}
      </Text>
    );
  if (phone)
    return (
      <Stack gap="xs" data-testid="statement-fee-items">
        {items.map((f) => (
          <FeeBlock key={f.id} fee={f} actions={actions} />
        ))}
      </Stack>
    );
  return (
    <Scroll label={d.title} minWidth={actions ? 640 : 480}>
      <Table striped withTableBorder aria-label={d.title} data-testid="statement-fee-items">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{d.contract}</Table.Th>
            <Table.Th>{d.kind}</Table.Th>
            <Table.Th ta="right">{d.amount}</Table.Th>
            <Table.Th>{d.status}</Table.Th>
            <Table.Th>{d.chargedAt}</Table.Th>
            {actions ? <Table.Th>{t.settle.actions}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((f) => (
            <Table.Tr key={f.id}>
              <Table.Td>{f.contract_name}</Table.Td>
              <Table.Td>{d.kinds[f.kind] ?? f.kind}</Table.Td>
              <Table.Td ta="right">{yuan(f.amount)}</Table.Td>
              <Table.Td>
                {d.statuses[f.status] ?? f.status}
                {f.settle_note ? `（${f.settle_note}）` : ''}
              </Table.Td>
              <Table.Td>{formatDateTime(f.created_at)}</Table.Td>
              {actions ? <Table.Td>{f.status === 'open' ? actions(f) : null}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Scroll>
  );
}

const lotsOk = (c: Pick<StatementContract, 'opening_unfixed' | 'added' | 'fixed' | 'rolled_out' | 'closing_unfixed'>) =>
  c.opening_unfixed + c.added - c.fixed - c.rolled_out === c.closing_unfixed;

/** Phones: one block per contract, its lots as the equation they balance by. */
function ContractList({ s }: { s: Statement }) {
  const d = t.lots;
  return (
    <Stack gap="xs" data-testid="statement-contracts">
      {s.contracts.map((c) => (
        <Card key={c.contract_id} withBorder radius="sm" p="xs" data-testid="statement-contract">
          <Text size="sm" fw={600}>
            {c.contract_name}
          </Text>
          <Text size="xs" c="dimmed">
            {c.instrument_id} · {d.directions[c.direction] ?? c.direction}
          </Text>
          <Text size="sm">{d.equation(c.opening_unfixed, c.added, c.fixed, c.rolled_out, c.closing_unfixed)}</Text>
          {c.fixed > 0 ? (
            <Text size="sm">{d.fixedLine(c.fixed, formatNumber(c.avg_fixed_price ?? 0, 2), yuan(c.fixed_amount))}</Text>
          ) : null}
          {c.fees > 0 ? <Text size="sm">{`${d.fees}：${yuan(c.fees)}`}</Text> : null}
        </Card>
      ))}
    </Stack>
  );
}

function ContractTable({ s }: { s: Statement }) {
  const d = t.lots;
  const sum = (f: (c: StatementContract) => number) => s.contracts.reduce((a, c) => a + f(c), 0);
  return (
    <Scroll label={d.title} minWidth={900}>
      <Table striped withTableBorder aria-label={d.title} data-testid="statement-contracts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{d.contract}</Table.Th>
            <Table.Th ta="right">{d.openingUnfixed}</Table.Th>
            <Table.Th ta="right">{d.added}</Table.Th>
            <Table.Th ta="right">{d.fixed}</Table.Th>
            <Table.Th ta="right">{d.rolledOut}</Table.Th>
            <Table.Th ta="right">{d.closingUnfixed}</Table.Th>
            <Table.Th ta="right">{d.closingFixed}</Table.Th>
            <Table.Th ta="right">{d.avgPrice}</Table.Th>
            <Table.Th ta="right">{d.amount}</Table.Th>
            <Table.Th ta="right">{d.fees}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {s.contracts.map((c) => (
            <Table.Tr key={c.contract_id} data-testid="statement-contract">
              <Table.Td>
                <Text size="sm">{c.contract_name}</Text>
                <Text size="xs" c="gray.7">
                  {c.instrument_id} · {d.directions[c.direction] ?? c.direction}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{c.opening_unfixed}</Table.Td>
              <Table.Td ta="right">{c.added}</Table.Td>
              <Table.Td ta="right">{c.fixed}</Table.Td>
              <Table.Td ta="right">{c.rolled_out}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {c.closing_unfixed}
              </Table.Td>
              <Table.Td ta="right">{c.closing_fixed}</Table.Td>
              <Table.Td ta="right">{c.avg_fixed_price === null ? '—' : formatNumber(c.avg_fixed_price, 2)}</Table.Td>
              <Table.Td ta="right">{yuan(c.fixed_amount)}</Table.Td>
              <Table.Td ta="right">{yuan(c.fees)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr fw={600}>
            <Table.Td>{d.total(s.contracts.length)}</Table.Td>
            <Table.Td ta="right">{s.lots.opening_unfixed}</Table.Td>
            <Table.Td ta="right">{s.lots.added}</Table.Td>
            <Table.Td ta="right">{s.lots.fixed}</Table.Td>
            <Table.Td ta="right">{s.lots.rolled_out}</Table.Td>
            <Table.Td ta="right">{s.lots.closing_unfixed}</Table.Td>
            <Table.Td ta="right">{sum((c) => c.closing_fixed)}</Table.Td>
            <Table.Td />
            <Table.Td ta="right">{yuan(sum((c) => c.fixed_amount))}</Table.Td>
            <Table.Td ta="right">{yuan(sum((c) => c.fees))}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Scroll>
  );
}

function EntriesTable({ s, phone }: { s: Statement; phone: boolean }) {
  const d = t.funds;
  if (!s.funds.entries.length)
    return (
      <Text size="sm" c="dimmed">
        {d.none}
      </Text>
    );
  const kind = (e: Statement['funds']['entries'][number]) =>
    e.fee_id !== null ? d.feeKind : (zh.margin.kinds[e.kind] ?? e.kind);
  if (phone)
    return (
      <Stack gap={4}>
        {s.funds.entries.map((e) => (
          <Group key={e.id} justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <div>
              <Text size="sm">{kind(e)}</Text>
              <Text size="xs" c="gray.7">
                {formatDateTime(e.created_at)}
                {e.note ? ` · ${e.note}` : ''}
              </Text>
            </div>
            <div style={{ textAlign: 'right' }}>
              <Text size="sm" c={e.amount < 0 ? 'red.8' : undefined}>
                {yuan(e.amount)}
              </Text>
              <Text size="xs" c="gray.7">{`${d.balanceAfter} ${yuan(e.balance_after)}`}</Text>
            </div>
          </Group>
        ))}
      </Stack>
    );
  return (
    <Scroll label={d.entries} minWidth={560}>
      <Table striped withTableBorder aria-label={d.entries}>
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
          {s.funds.entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
              <Table.Td>{kind(e)}</Table.Td>
              <Table.Td ta="right" c={e.amount < 0 ? 'red.8' : undefined}>
                {yuan(e.amount)}
              </Table.Td>
              <Table.Td ta="right">{yuan(e.balance_after)}</Table.Td>
              <Table.Td>{e.note}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Scroll>
  );
}

export interface StatementViewProps {
  statement: Statement;
  /** The trader's buttons on an open fee (collect, offset, waive). */
  feeActions?: (fee: FeeReceivable) => ReactNode;
  /** Under the heading: the customer's answer buttons, or nothing. */
  respond?: ReactNode;
}

/**
 * 对账单 (docs/statements.md): funds, fee receivables and every contract's lots, each as opening +
 * movements = closing, the customer's 客户全称 and answer. The trader's console and the customer's
 * desk show the same document.
 */
export function StatementView({ statement: s, feeActions, respond }: StatementViewProps) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  const allLotsOk = s.contracts.every(lotsOk) && lotsOk(s.lots);
  return (
    <Stack gap="md" data-testid="statement">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t.heading(s.company_name, s.start_date, s.end_date)}
        </Title>
        <Text size="sm" data-testid="statement-customer">
          {t.customerLine(s.pricer_full_name)}
        </Text>
        <Group gap="xs" align="center">
          <Text size="sm" fw={500}>
            {t.response.title}
          </Text>
          <div data-testid="statement-response">
            <StatementResponseBadge statement={s} />
          </div>
        </Group>
        {respond}
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <FundsCard s={s} />
        <FeesCard s={s} />
      </SimpleGrid>
      <Card withBorder radius="md" p="sm">
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t.lots.title}
          </Title>
          <Text size="xs" c="dimmed">
            {t.lots.hint}
          </Text>
          {s.contracts.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t.lots.none}
            </Text>
          ) : phone ? (
            <ContractList s={s} />
          ) : (
            <ContractTable s={s} />
          )}
          <Balanced ok={allLotsOk} testId="lots-balanced" />
        </Stack>
      </Card>
      <Card withBorder radius="md" p="sm">
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t.fees.title}
          </Title>
          <Text size="xs" c="dimmed">
            {t.fees.hint}
          </Text>
          <FeeItems items={s.fees.items} actions={feeActions} phone={phone} />
        </Stack>
      </Card>
      <Card withBorder radius="md" p="sm">
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t.funds.entries}
          </Title>
          <EntriesTable s={s} phone={phone} />
        </Stack>
      </Card>
    </Stack>
  );
}
