import { Checkbox, NumberInput } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { ReactNode } from 'react';

const m = zh.marginDefaults;

/** A rate (0 … 1, 4 decimals) as the form shows it: percent with up to 2 decimals. */
export const rateToPercent = (rate: number) => Number((rate * 100).toFixed(2));
/** '' stays '' (the field left empty). */
export const percentToRate = (pct: number | '') => (pct === '' ? null : Math.round(pct * 100) / 10_000);

export interface MarginRateFieldProps {
  label: string;
  value: number | '';
  onChange: (value: number | '') => void;
  description?: ReactNode;
  placeholder?: string;
  error?: ReactNode;
  disabled?: boolean;
  testId: string;
  /** When the value is 0: the confirmation that no margin is held (null: not asked). */
  zero?: { checked: boolean; onChange: (checked: boolean) => void; help: string; error?: ReactNode } | null;
}

/**
 * 保证金比例 in percent (issue 41): 0 … 100 with 2 decimals; a 0 is confirmed with a checkbox that says
 * what it means (no margin held, never a margin call), the form refuses to save until it is ticked.
 */
export function MarginRateField(props: MarginRateFieldProps) {
  const { zero } = props;
  return (
    <>
      <NumberInput
        label={props.label}
        description={props.description}
        placeholder={props.placeholder}
        min={0}
        max={100}
        decimalScale={2}
        allowNegative={false}
        clampBehavior="strict"
        suffix="%"
        value={props.value}
        error={props.error}
        disabled={props.disabled}
        onChange={(v) => props.onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
        data-testid={props.testId}
      />
      {zero && props.value === 0 ? (
        <Checkbox
          label={m.zeroConfirm}
          description={zero.help}
          checked={zero.checked}
          error={zero.error}
          disabled={props.disabled}
          onChange={(e) => zero.onChange(e.currentTarget.checked)}
          data-testid={`${props.testId}-zero-confirm`}
        />
      ) : null}
    </>
  );
}
