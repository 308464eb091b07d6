import { DateInput, type DateInputProps } from '@pfp/mantine';
import { zh } from '@pfp/i18n';

/** The wire format of every day the product sends and receives. */
const DAY_FORMAT = 'YYYY-MM-DD';

export type DateFieldProps = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'minDate' | 'maxDate' | 'valueFormat' | 'locale'
> & {
  /** 'YYYY-MM-DD', or '' for no day (controlled either way). */
  value?: string;
  onChange: (day: string) => void;
  min?: string | undefined;
  max?: string | undefined;
};

/** A calendar day's accessible name, 2026年12月1日 (Mantine's default mixes in Latin order). */
function dayLabel(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return zh.dates.dayLabel(Number(y), Number(m), Number(d));
}

/**
 * A day field that reads as a Chinese date (年-月-日, 2026-12-01) with a Chinese calendar
 * (十二月, 日一二三四五六) whatever the browser's language: the native date input follows the
 * browser's locale (mm/dd/yyyy in an English Chromium). One can type the day or pick it.
 */
export function DateField({ value, onChange, min, max, ...rest }: DateFieldProps) {
  return (
    <DateInput
      locale="zh-cn"
      valueFormat={DAY_FORMAT}
      firstDayOfWeek={0}
      placeholder={zh.dates.placeholder}
      ariaLabels={zh.dates.ariaLabels}
      monthLabelFormat={zh.dates.monthLabel}
      getDayAriaLabel={dayLabel}
      allowDeselect
      {...rest}
      value={value === undefined || value === '' ? null : value}
      minDate={min || undefined}
      maxDate={max || undefined}
      onChange={(day) => onChange(day ?? '')}
    />
  );
}

/** A day field ('YYYY-MM-DD') of the date-range filters and exports. */
export function DayInput(props: {
  label: string;
  value: string;
  onChange: (day: string) => void;
  testId: string;
  disabled?: boolean;
  size?: 'xs';
  min?: string | undefined;
  max?: string | undefined;
}) {
  return (
    <DateField
      size={props.size}
      label={props.label}
      value={props.value}
      min={props.min}
      max={props.max}
      onChange={props.onChange}
      disabled={props.disabled}
      data-testid={props.testId}
    />
  );
}
