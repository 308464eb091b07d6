import { NumberInput, SimpleGrid } from '@pfp/mantine';
import { beijingDay, zh } from '@pfp/i18n';
import { useState } from 'react';
import { TradingDayField } from './TradingDayField';

const t = zh.fixing;

export interface FixingTermsFieldsProps {
  basis: number | '';
  deadline: string;
  /** The future the deadline is on: its exchange's trading days are the ones to pick. */
  instrumentId: string;
  errors: { basis?: string | undefined; fixing_deadline?: string | undefined };
  disabled: boolean;
  onBasis: (value: number | '') => void;
  onDeadline: (value: string) => void;
}

/**
 * The contract's fixing terms in the create dialog: basis (元, sign allowed) and deadline (date picker,
 * trading days of the future's exchange only).
 * The basis input keeps what is typed (no decimal scale): a value with more than 2 decimals is refused
 * by the schema with a message, never rounded behind the user's back.
 */
export function FixingTermsFields({
  basis,
  deadline,
  instrumentId,
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
        step={1}
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
      <TradingDayField
        instrumentId={instrumentId}
        label={t.deadline}
        description={t.deadlineHelp}
        withAsterisk={!disabled}
        min={today}
        value={deadline}
        error={errors.fixing_deadline}
        disabled={disabled}
        onChange={onDeadline}
        data-testid="contract-deadline"
      />
    </SimpleGrid>
  );
}
