import { Button, Checkbox, Group, Loader, Select, Stack, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { useState, type ReactNode } from 'react';
import { useMarginSettings, useProducts, useSetMarginSettings } from './api';
import { FormDialog, saveThenClose } from './FormDialog';
import { MarginRateField, percentToRate, rateToPercent } from './MarginRateField';

const m = zh.marginDefaults;
const s = m.settings;

interface Row {
  product_name: string;
  pct: number | '';
}

/**
 * 保证金设置 (issue 41): the company's default rate and its rates per product, for contracts created
 * without one (contract → customer → product → company). A 0 anywhere is confirmed once.
 */
export function MarginSettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useMarginSettings();
  return (
    <FormDialogLoader loading={settings.isPending} failed={settings.isError} onClose={onClose}>
      {settings.data ? (
        <SettingsForm
          initial={{
            company: rateToPercent(settings.data.default_margin_rate),
            rows: (settings.data.product_rates ?? []).map((p) => ({
              product_name: p.product_name,
              pct: rateToPercent(p.margin_rate),
            })),
          }}
          onClose={onClose}
        />
      ) : null}
    </FormDialogLoader>
  );
}

function FormDialogLoader(props: { loading: boolean; failed: boolean; onClose: () => void; children: ReactNode }) {
  if (!props.loading && !props.failed) return <>{props.children}</>;
  return (
    <FormDialog
      opened
      title={s.title}
      saving={false}
      onClose={props.onClose}
      onSubmit={(e) => e.preventDefault()}
      cancelLabel={zh.trader.settings.cancel}
      submitLabel={zh.trader.settings.save}
      submitDisabled
    >
      {props.failed ? <Text c="red.8">{s.loadFailed}</Text> : <Loader size="sm" />}
    </FormDialog>
  );
}

function SettingsForm({ initial, onClose }: { initial: { company: number | ''; rows: Row[] }; onClose: () => void }) {
  const save = useSetMarginSettings();
  const products = useProducts(true);
  const [company, setCompany] = useState<number | ''>(initial.company);
  const [rows, setRows] = useState<Row[]>(initial.rows);
  const [zeroOk, setZeroOk] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const anyZero = company === 0 || rows.some((r) => r.pct === 0);
  const chosen = new Set(rows.map((r) => r.product_name));
  const options = (products.data ?? []).map((p) => p.name).filter((n) => !chosen.has(n));

  const run = saveThenClose(
    () =>
      save.mutateAsync({
        default_margin_rate: percentToRate(company) ?? 0,
        product_rates: rows
          .filter((r) => r.product_name !== '' && r.pct !== '')
          .map((r) => ({ product_name: r.product_name, margin_rate: percentToRate(r.pct) ?? 0 })),
      }),
    { done: s.saved, failed: s.failed },
    onClose,
  );

  return (
    <FormDialog
      opened
      title={s.title}
      saving={saving}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        if (company === '') return setProblem(m.rateInvalid);
        if (anyZero && !zeroOk) return setProblem(m.zeroConfirmRequired);
        setSaving(true);
        void run(undefined).finally(() => setSaving(false));
      }}
      cancelLabel={zh.trader.settings.cancel}
      submitLabel={saving ? zh.trader.settings.saving : zh.trader.settings.save}
    >
      <MarginRateField
        label={s.companyRate}
        description={s.companyHelp}
        value={company}
        disabled={saving}
        testId="company-margin-rate"
        onChange={(value) => {
          setCompany(value);
          setProblem(null);
        }}
      />
      <Text size="sm" fw={600}>
        {s.productRates}
      </Text>
      <Stack gap="xs">
        {rows.map((r, i) => (
          <Group key={r.product_name || `new-${i}`} gap="xs" align="flex-end" wrap="nowrap">
            <Select
              aria-label={s.product}
              placeholder={s.productPlaceholder}
              searchable
              data={r.product_name ? [r.product_name, ...options] : options}
              value={r.product_name || null}
              onChange={(value) => setRows(rows.map((x, j) => (j === i ? { ...x, product_name: value ?? '' } : x)))}
              style={{ flex: 1 }}
              disabled={saving}
            />
            <div style={{ width: 120 }}>
              <MarginRateField
                label={m.rateField}
                value={r.pct}
                disabled={saving}
                testId={`product-margin-rate-${i}`}
                onChange={(value) => {
                  setRows(rows.map((x, j) => (j === i ? { ...x, pct: value } : x)));
                  setProblem(null);
                }}
              />
            </div>
            <Button
              variant="subtle"
              color="gray"
              size="xs"
              mb={4}
              aria-label={s.remove(r.product_name || s.productPlaceholder)}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
              disabled={saving}
            >
              {s.removeShort}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="light"
            onClick={() => setRows([...rows, { product_name: '', pct: company }])}
            disabled={saving}
          >
            {s.add}
          </Button>
        </Group>
      </Stack>
      {anyZero ? (
        <MarginZeroConfirm
          checked={zeroOk}
          onChange={(c) => {
            setZeroOk(c);
            setProblem(null);
          }}
        />
      ) : null}
      <Text size="xs" c="dimmed">
        {s.existingNote}
      </Text>
      {problem ? (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      ) : null}
    </FormDialog>
  );
}

function MarginZeroConfirm({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Checkbox
      label={m.zeroConfirm}
      description={m.zeroConfirmHelp}
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      data-testid="settings-zero-confirm"
    />
  );
}
