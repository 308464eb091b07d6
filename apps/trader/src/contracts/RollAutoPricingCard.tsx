import { Alert, Badge, Button, Card, Checkbox, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@pfp/mantine';
import type { RollAutoPricing } from '@pfp/contract';
import { formatNumber, zh } from '@pfp/i18n';
import { useState } from 'react';
import { errorText, useRollAutoPricing, useSetRollAutoPricing } from '../shared/api';
import { useCan } from '../shared/roles';
import { TONE } from '../shared/tones';
import { applying, EffectDialog } from './LifecycleDialogs';

const A = zh.rollAutoPricing;
const yuan = (n: number) => formatNumber(n, 2);
const num = (v: number | string) => (typeof v === 'number' ? v : v === '' || v === '-' ? NaN : Number(v));

function Figure({ label, value, unit, testId }: { label: string; value: string; unit: string; testId: string }) {
  return (
    <div data-testid={testId}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={700}>
        {value} {unit}
      </Text>
    </div>
  );
}

/** 修改规则 (管理员): the rule's fields, then what saving it does to customers' applications. */
function EditDialog({ rule, onClose }: { rule: RollAutoPricing; onClose: () => void }) {
  const save = useSetRollAutoPricing();
  const [enabled, setEnabled] = useState(rule.enabled);
  const [deviation, setDeviation] = useState<number | string>(rule.max_spread_deviation);
  const [fee, setFee] = useState<number | string>(rule.fee_per_unit);
  const [valid, setValid] = useState<number | string>(rule.valid_seconds);
  const d = num(deviation);
  const f = num(fee) || 0;
  const v = num(valid);
  const ready = Number.isFinite(d) && d >= 0 && f >= 0 && Number.isInteger(v) && v >= 10 && v <= 86_400;
  return (
    <EffectDialog
      title={A.dialogTitle}
      confirmLabel={A.save}
      texts={{ done: A.done, failed: A.failed }}
      onClose={onClose}
      run={() => save.mutateAsync({ enabled, max_spread_deviation: d, fee_per_unit: f, valid_seconds: v })}
      effect={
        ready
          ? {
              testId: 'roll-auto-effect',
              title: A.effectTitle,
              irreversible: A.noOrders,
              items: enabled
                ? applying(A.effectOn(yuan(d)), A.effectFee(yuan(f)), A.effectValid(v))
                : applying(A.effectOff),
            }
          : null
      }
    >
      <Checkbox
        label={A.enabled}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
        data-testid="roll-auto-enabled"
      />
      <NumberInput
        label={A.deviationLabel}
        description={A.deviationHelp}
        min={0}
        decimalScale={2}
        value={deviation}
        onChange={setDeviation}
        data-testid="roll-auto-deviation"
      />
      <NumberInput
        label={A.feeLabel}
        min={0}
        decimalScale={2}
        value={fee}
        onChange={setFee}
        data-testid="roll-auto-fee"
      />
      <NumberInput
        label={A.validLabel}
        min={10}
        max={86_400}
        allowDecimal={false}
        value={valid}
        onChange={setValid}
        data-testid="roll-auto-valid"
      />
    </EffectDialog>
  );
}

/** 转月申请: the company's auto-pricing rule in words and units; 管理员 changes it (docs/roles.md). */
export function RollAutoPricingCard() {
  const rule = useRollAutoPricing();
  const mayEdit = useCan()('setRollAutoPricing');
  const [editing, setEditing] = useState(false);
  const r = rule.data;
  return (
    <Card withBorder radius="md" padding="md" data-testid="roll-auto-pricing">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h4">
              {A.title}
            </Title>
            {r ? (
              <Badge variant="outline" color={r.enabled ? TONE.success : TONE.muted} data-testid="roll-auto-status">
                {r.enabled ? A.on : A.off}
              </Badge>
            ) : null}
          </Group>
          {mayEdit && r ? (
            <Button
              variant="outline"
              size="xs"
              color={TONE.info}
              onClick={() => setEditing(true)}
              data-testid="roll-auto-edit"
            >
              {A.edit}
            </Button>
          ) : null}
        </Group>
        {rule.isError ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {errorText(rule.error)}
          </Alert>
        ) : r ? (
          <>
            <Text size="sm" data-testid="roll-auto-summary">
              {r.enabled ? A.onNote(yuan(r.max_spread_deviation)) : A.offNote}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <Figure
                label={A.deviation}
                value={yuan(r.max_spread_deviation)}
                unit={A.perTon}
                testId="roll-auto-deviation-value"
              />
              <Figure label={A.fee} value={yuan(r.fee_per_unit)} unit={A.perTon} testId="roll-auto-fee-value" />
              <Figure label={A.valid} value={String(r.valid_seconds)} unit={A.seconds} testId="roll-auto-valid-value" />
            </SimpleGrid>
            <Text size="xs" c="gray.7">
              {A.unitNote}
            </Text>
          </>
        ) : null}
      </Stack>
      {editing && r ? <EditDialog rule={r} onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}
