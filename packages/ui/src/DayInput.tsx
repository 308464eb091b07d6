import { TextInput } from '@pfp/mantine';

/** A day field ('YYYY-MM-DD', the browser's date picker) of the date-range filters and exports. */
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
    <TextInput
      type="date"
      size={props.size}
      label={props.label}
      value={props.value}
      min={props.min}
      max={props.max}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      disabled={props.disabled}
      data-testid={props.testId}
    />
  );
}
