import { NumberInput, SimpleGrid, TextInput } from '@pfp/mantine';
import { beijingDay, tickDecimals, zh } from '@pfp/i18n';
import { useState } from 'react';

const t = zh.fixing;

export interface FixingTermsFieldsProps {
  basis: number | '';
  deadline: string;
  /** The chosen instrument's tick: the basis steps by it and keeps its decimals. */
  tick: number | undefined;
  errors: { basis?: string | undefined; fixing_deadline?: string | undefined };
  disabled: boolean;
  onBasis: (value: number | '') => void;
  onDeadline: (value: string) => void;
}

/** The contract's fixing terms in the create dialog: basis (sign allowed, tick steps) and deadline (date picker). */
export function FixingTermsFields({
  basis,
  deadline,
  tick,
  errors,
  disabled,
  onBasis,
  onDeadline,
}: FixingTermsFieldsProps) {
  const [today] = useState(() => beijingDay(Date.now()));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <NumberInput
        label={t.basis}
        description={t.basisHelp}
        placeholder={t.basisPlaceholder}
        withAsterisk={!disabled}
        step={tick ?? 1}
        decimalScale={tick ? tickDecimals(tick) : 4}
        allowNegative
        thousandSeparator=","
        value={basis}
        error={errors.basis}
        disabled={disabled}
        onChange={(value) =>
          onBasis(typeof value === 'number' ? value : value === '' || value === '-' ? '' : Number(value))
        }
        data-testid="contract-basis"
      />
      <TextInput
        type="date"
        label={t.deadline}
        description={t.deadlineHelp}
        withAsterisk={!disabled}
        min={today}
        value={deadline}
        error={errors.fixing_deadline}
        disabled={disabled}
        onChange={(event) => onDeadline(event.currentTarget.value)}
        data-testid="contract-deadline"
      />
    </SimpleGrid>
  );
}
