import { NumberInput } from '@pfp/mantine';
import type { GetInputPropsReturnType } from '@mantine/form';
import { formatNumber, zh } from '@pfp/i18n';

/** A number field's value as the forms hold it: the number, or '' while it is empty or not a number. */
export function asNumber(value: number | string): number | '' {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n : '';
}

/** 成交数量 of the order and conditional forms: whole lots, at least one (the rules say so, nothing is clamped). */
export function LotsInput({ remaining, input }: { remaining: number | undefined; input: GetInputPropsReturnType }) {
  return (
    <NumberInput
      label={zh.pricer.tradeLots}
      placeholder={remaining === undefined ? undefined : zh.pricer.remainingShort(formatNumber(remaining))}
      allowDecimal={false}
      allowNegative={false}
      min={1}
      clampBehavior="none"
      inputMode="numeric"
      withAsterisk
      {...input}
      onChange={(v) => input.onChange(asNumber(v))}
    />
  );
}
