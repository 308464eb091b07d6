import { NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { DateField, notify } from '@pfp/ui';
import type { ContractRow, ContractStatus } from '@pfp/contract';
import {
  errorText,
  useAllUsers,
  useCreateContract,
  useInstruments,
  useProducts,
  useUpdateContractStatus,
  useContractPausePreview,
  useEffectiveMarginRate,
} from '../shared/api';
import { MarginRateField, rateToPercent } from '../shared/MarginRateField';
import { useEffect } from 'react';
import { DIRECTION_OPTIONS } from '../shared/columns';
import {
  CONTRACT_STATUSES,
  contractSchema,
  EMPTY_CONTRACT,
  toCreateInput,
  valuesFromContract,
  termsProblems,
  withProduct,
  type ContractValues,
} from './contractForm';
import { FormDialog } from '../shared/FormDialog';
import { FixingTermsFields } from './FixingTermsFields';
import { StatusEffect } from './ContractStatusDialog';

const t = zh.trader.contracts;
const d = t.dialog;
const m = zh.marginDefaults;

/** SPEC §9: the product dropdown uses a 4-column grid above 12 products. */
export const PRODUCT_GRID_THRESHOLD = 12;

export interface ContractDialogProps {
  opened: boolean;
  /** null: create; a contract: edit (only its status can change). */
  contract: ContractRow | null;
  onClose: () => void;
}

/** Mount with a new key on every open. */
/** A form error as text (Mantine's errors may be nodes). */
const errorOf = (e: unknown) => (typeof e === 'string' ? e : undefined);

export function ContractDialog({ opened, contract, onClose }: ContractDialogProps) {
  const createContract = useCreateContract();
  const updateContractStatus = useUpdateContractStatus();
  const editing = contract !== null;
  const form = useForm<ContractValues>({
    initialValues: contract ? valuesFromContract(contract) : EMPTY_CONTRACT,
    // In edit mode only the status changes: nothing to check.
    ...(editing ? {} : { validate: schemaResolver(contractSchema, { sync: true }) }),
  });
  const values = form.values;
  const saving = form.submitting;
  // A status change says what it does to the contract's live orders and 条件单 (issue 30).
  const statusChanged = editing && values.status !== contract.status;
  const preview = useContractPausePreview(opened && statusChanged ? contract.id : null);

  const pricers = useAllUsers(opened && !editing);
  const products = useProducts(opened && !editing);
  const instruments = useInstruments(values.product_name, opened && !editing);
  // The rate offered for this customer and product (issue 41), until the trader types one.
  const offered = useEffectiveMarginRate(editing ? null : values.pricer_id, values.product_name);
  const offeredRate = offered.data?.margin_rate;
  useEffect(() => {
    if (offeredRate !== undefined && !form.getValues().margin_touched)
      form.setFieldValue('margin_pct', rateToPercent(offeredRate));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form object is stable; only the offer matters
  }, [offeredRate]);

  const save = async (v: ContractValues) => {
    if (editing && v.status === contract.status) {
      onClose();
      return;
    }
    if (!editing) {
      const problems = termsProblems(v);
      for (const [field, message] of Object.entries(problems)) form.setFieldError(field, message);
      if (Object.keys(problems).length > 0) return;
    }
    try {
      if (editing) {
        await updateContractStatus.mutateAsync({ contract_id: contract.id, new_status: v.status });
        notify(t.updated, 'success', 3000);
      } else {
        await createContract.mutateAsync(toCreateInput(v));
        notify(t.created, 'success', 3000);
      }
      onClose();
    } catch (err) {
      notify(t.saveFailed(errorText(err)), 'error');
    }
  };

  const productItems = (products.data ?? []).map((p) => p.name);
  // In edit mode the contract's own values are the only options (the fields are read-only).
  const pricerData = editing
    ? [{ value: String(contract.pricer_id), label: contract.pricer_name ?? '' }]
    : // The 客户全称 with the login beside it (issue 41): two customers may share a trade name, never a login.
      (pricers.data ?? []).map((u) => ({
        value: String(u.id),
        label: u.full_name?.trim() ? `${u.full_name.trim()}（${u.username}）` : u.username,
      }));
  const productData = editing ? [values.product_name] : productItems;
  const instrumentData = editing
    ? [{ value: values.instrument_id, label: values.instrument_id }]
    : (instruments.data ?? []).map((i) => ({ value: i.symbol, label: `${i.name}（${i.symbol}）` }));
  const grid = productData.length > PRODUCT_GRID_THRESHOLD;
  const statusOptions = (editing ? CONTRACT_STATUSES : (['active', 'paused'] as ContractStatus[])).map((s) => ({
    value: s,
    label: t.status[s] ?? s,
  }));
  const locked = editing || saving;

  return (
    <FormDialog
      opened={opened}
      title={editing ? d.editTitle : d.createTitle}
      saving={saving}
      onClose={onClose}
      onSubmit={form.onSubmit(save)}
      cancelLabel={d.cancel}
      submitLabel={saving ? d.saving : editing ? d.submitEdit : d.submitCreate}
      size="lg"
    >
      {editing ? (
        <Text size="sm" c="gray.7">
          {d.editHint}
        </Text>
      ) : null}
      <Select
        label={d.pricer}
        placeholder={d.pricerPlaceholder}
        withAsterisk={!editing}
        searchable
        nothingFoundMessage={d.nothingFound}
        data={pricerData}
        value={values.pricer_id === null ? null : String(values.pricer_id)}
        error={form.errors.pricer_id ?? (pricers.isError ? d.pricersFailed : undefined)}
        disabled={locked}
        onChange={(value) => form.setFieldValue('pricer_id', value === null ? null : Number(value))}
        data-testid="contract-pricer"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={d.product}
          placeholder={d.productPlaceholder}
          searchable
          nothingFoundMessage={d.nothingFound}
          data={productData}
          value={values.product_name || null}
          error={form.errors.product_name ?? (products.isError ? d.productsFailed : undefined)}
          disabled={locked}
          onChange={(value) => {
            form.setValues(withProduct(form.getValues(), value ?? ''));
            form.clearFieldError('product_name');
            form.clearFieldError('instrument_id');
          }}
          comboboxProps={grid ? { width: 'min(560px, 92vw)', position: 'bottom-start' } : undefined}
          // The grid must hold the options themselves: with Mantine's scroll area the listbox's only child is
          // the scroll area and the options fall in one column (issue 29). Without it, the listbox scrolls.
          withScrollArea={!grid}
          styles={
            grid
              ? {
                  options: {
                    display: 'grid',
                    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
                    maxHeight: 320,
                    overflowY: 'auto',
                  },
                }
              : undefined
          }
          maxDropdownHeight={320}
          data-testid="contract-product"
          data-grid={grid ? 'true' : 'false'}
        />
        <Select
          label={d.instrument}
          placeholder={values.product_name ? d.instrumentPlaceholder : d.instrumentDisabled}
          withAsterisk={!editing}
          searchable
          nothingFoundMessage={d.nothingFound}
          data={instrumentData}
          value={values.instrument_id || null}
          error={form.errors.instrument_id ?? (instruments.isError ? d.instrumentsFailed : undefined)}
          disabled={locked || values.product_name === ''}
          onChange={(value) => form.setFieldValue('instrument_id', value ?? '')}
          data-testid="contract-instrument"
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={d.direction}
          placeholder={d.directionPlaceholder}
          withAsterisk={!editing}
          data={DIRECTION_OPTIONS}
          value={values.direction}
          error={form.errors.direction}
          disabled={locked}
          onChange={(value) => form.setFieldValue('direction', value === 'BUY' || value === 'SELL' ? value : null)}
          data-testid="contract-direction"
        />
        <NumberInput
          label={d.totalQuantity}
          withAsterisk={!editing}
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          disabled={locked}
          data-testid="contract-quantity"
          {...form.getInputProps('total_quantity')}
          onChange={(value) =>
            form.setFieldValue('total_quantity', typeof value === 'number' ? value : value === '' ? '' : Number(value))
          }
        />
      </SimpleGrid>
      <FixingTermsFields
        basis={values.basis}
        deadline={values.fixing_deadline}
        instrumentId={values.instrument_id}
        errors={{ basis: errorOf(form.errors.basis), fixing_deadline: errorOf(form.errors.fixing_deadline) }}
        disabled={locked}
        onBasis={(value) => {
          form.setFieldValue('basis', value);
          form.clearFieldError('basis');
        }}
        onDeadline={(value) => {
          form.setFieldValue('fixing_deadline', value);
          form.clearFieldError('fixing_deadline');
        }}
      />
      <MarginRateField
        label={m.rateField}
        value={values.margin_pct}
        description={
          editing
            ? m.fixedOnContract
            : offered.data
              ? m.defaultHint(offered.data.margin_rate, m.sources[offered.data.source] ?? '')
              : m.pickFirst
        }
        error={errorOf(form.errors.margin_pct)}
        disabled={locked}
        testId="contract-margin-rate"
        onChange={(value) => {
          form.setValues({ margin_pct: value, margin_touched: true, margin_zero_ok: false });
          form.clearFieldError('margin_pct');
          form.clearFieldError('margin_zero_ok');
        }}
        zero={
          editing
            ? null
            : values.margin_touched
              ? {
                  checked: values.margin_zero_ok,
                  help: m.zeroConfirmHelp,
                  error: errorOf(form.errors.margin_zero_ok),
                  onChange: (checked) => {
                    form.setFieldValue('margin_zero_ok', checked);
                    form.clearFieldError('margin_zero_ok');
                  },
                }
              : null
        }
      />
      <SegmentedControl
        aria-label={zh.lifecycle.ui.pricingMode}
        data={[
          { value: 'point', label: zh.lifecycle.pricingModes.point },
          { value: 'average', label: zh.lifecycle.pricingModes.average },
        ]}
        value={values.pricing_mode}
        disabled={locked}
        onChange={(value) => form.setFieldValue('pricing_mode', value === 'average' ? 'average' : 'point')}
        data-testid="contract-pricing-mode"
      />
      {values.pricing_mode === 'average' ? (
        <>
          <Text size="xs" c="dimmed">
            {zh.lifecycle.ui.pricingModeHelp}
          </Text>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="contract-average-basis-label">
              {zh.averageBasis.label}
            </Text>
            <SegmentedControl
              aria-labelledby="contract-average-basis-label"
              data={[
                { value: 'settlement', label: zh.averageBasis.bases.settlement },
                { value: 'fills', label: zh.averageBasis.bases.fills },
              ]}
              value={values.average_basis}
              disabled={locked}
              onChange={(value) => form.setFieldValue('average_basis', value === 'fills' ? 'fills' : 'settlement')}
              data-testid="contract-average-basis"
            />
            <Text size="xs" c="dimmed" data-testid="contract-average-basis-help">
              {zh.averageBasis.meaning[values.average_basis]}
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DateField
              label={zh.lifecycle.ui.averageStart}
              withAsterisk={!locked}
              disabled={locked}
              {...form.getInputProps('average_start')}
              data-testid="contract-average-start"
            />
            <DateField
              label={zh.lifecycle.ui.averageEnd}
              withAsterisk={!locked}
              disabled={locked}
              {...form.getInputProps('average_end')}
              data-testid="contract-average-end"
            />
          </SimpleGrid>
        </>
      ) : null}
      <TextInput
        label={d.name}
        placeholder={d.namePlaceholder}
        disabled={locked}
        maxLength={100}
        {...form.getInputProps('name')}
      />
      <Select
        label={d.status}
        data={statusOptions}
        value={values.status}
        allowDeselect={false}
        disabled={saving}
        onChange={(value) => {
          if (value && (CONTRACT_STATUSES as string[]).includes(value))
            form.setFieldValue('status', value as ContractStatus);
        }}
        data-testid="contract-status"
      />
      {statusChanged ? <StatusEffect preview={preview} to={values.status} /> : null}
    </FormDialog>
  );
}
