import { zh } from '@pfp/i18n';
import { MarginRateField } from '../shared/MarginRateField';

const m = zh.marginDefaults;
const errorOf = (e: unknown) => (typeof e === 'string' ? e : undefined);

/** What the customer forms hand the field: the two values, their setters, the 0's error. */
export interface CustomerRateFormPart {
  values: { margin_pct: number | ''; margin_zero_ok: boolean };
  submitting: boolean;
  errors: Record<string, unknown>;
  setPct: (value: number | '') => void;
  setZeroOk: (checked: boolean) => void;
}

/** The customer's own margin rate on the create and edit forms (issue 41): empty for the company's, a 0 confirmed. */
export function CustomerRateField({ form }: { form: CustomerRateFormPart }) {
  return (
    <MarginRateField
      label={m.customerField}
      placeholder={m.customerPlaceholder}
      description={m.customerHelp}
      value={form.values.margin_pct}
      disabled={form.submitting}
      testId="pricer-margin-rate"
      onChange={(value) => {
        form.setPct(value);
        form.setZeroOk(false);
      }}
      zero={{
        checked: form.values.margin_zero_ok,
        help: m.customerZeroHelp,
        error: errorOf(form.errors.margin_zero_ok),
        onChange: form.setZeroOk,
      }}
    />
  );
}
