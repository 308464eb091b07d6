import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import type { ContractRow, ContractStatus } from '@pfp/contract';
import { useState, type FormEvent } from 'react';
import {
  errorText,
  useAllUsers,
  useCreateContract,
  useInstruments,
  useProducts,
  useUpdateContractStatus,
} from '../shared/api';
import { directionLabel } from '../shared/labels';
import {
  CONTRACT_STATUSES,
  EMPTY_CONTRACT_FORM,
  formFromContract,
  toCreateInput,
  validateContract,
  withProduct,
  type ContractErrors,
  type ContractField,
  type ContractForm,
} from './contractForm';
import { TONE } from '../shared/tones';

const t = zh.trader.contracts;
const d = t.dialog;

/** SPEC §9: the product dropdown uses a 4-column grid above 12 products. */
export const PRODUCT_GRID_THRESHOLD = 12;

export interface ContractDialogProps {
  opened: boolean;
  /** null: create; a contract: edit (only its status can change). */
  contract: ContractRow | null;
  onClose: () => void;
}

/** Mount with a new key on every open. */
export function ContractDialog({ opened, contract, onClose }: ContractDialogProps) {
  const createContract = useCreateContract();
  const updateContractStatus = useUpdateContractStatus();
  const editing = contract !== null;
  const [form, setForm] = useState<ContractForm>(() => (contract ? formFromContract(contract) : EMPTY_CONTRACT_FORM));
  const [errors, setErrors] = useState<ContractErrors>({});
  const [saving, setSaving] = useState(false);

  const pricers = useAllUsers(opened && !editing);
  const products = useProducts(opened && !editing);
  const instruments = useInstruments(form.product_name, opened && !editing);

  const clearError = (field: ContractField) =>
    setErrors((previous) => {
      if (!(field in previous)) return previous;
      const next = { ...previous };
      delete next[field];
      return next;
    });

  const set = <K extends keyof ContractForm>(field: K, value: ContractForm[K]) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    if (field !== 'name' && field !== 'status' && field !== 'product_name') clearError(field as ContractField);
  };

  const close = () => {
    if (!saving) onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (editing) {
      if (form.status === contract.status) {
        onClose();
        return;
      }
    } else {
      const found = validateContract(form);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
    }
    setSaving(true);
    try {
      if (editing) {
        await updateContractStatus.mutateAsync({ contract_id: contract.id, new_status: form.status });
        notify(t.updated, 'success', 3000);
      } else {
        await createContract.mutateAsync(toCreateInput(form));
        notify(t.created, 'success', 3000);
      }
      setSaving(false);
      onClose();
    } catch (err) {
      notify(t.saveFailed(errorText(err)), 'error');
      setSaving(false);
    }
  };

  const productItems = (products.data ?? []).map((p) => p.name);
  // In edit mode the contract's own values are the only options (the fields are read-only).
  const pricerData = editing
    ? [{ value: form.pricer_id, label: contract.pricer_name ?? '' }]
    : (pricers.data ?? []).map((u) => ({ value: String(u.id), label: u.username }));
  const productData = editing ? [form.product_name] : productItems;
  const instrumentData = editing
    ? [{ value: form.instrument_id, label: form.instrument_id }]
    : (instruments.data ?? []).map((i) => ({ value: i.symbol, label: `${i.name}（${i.symbol}）` }));
  const grid = productData.length > PRODUCT_GRID_THRESHOLD;
  const statusOptions = (editing ? CONTRACT_STATUSES : (['active', 'paused'] as ContractStatus[])).map((s) => ({
    value: s,
    label: t.status[s] ?? s,
  }));
  const locked = editing || saving;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={editing ? d.editTitle : d.createTitle}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      closeButtonProps={{ disabled: saving, 'aria-label': zh.shell.close }}
      size="lg"
      centered
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
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
            value={form.pricer_id || null}
            error={errors.pricer_id ?? (pricers.isError ? d.pricersFailed : undefined)}
            disabled={locked}
            onChange={(value) => set('pricer_id', value ?? '')}
            data-testid="contract-pricer"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={d.product}
              placeholder={d.productPlaceholder}
              searchable
              nothingFoundMessage={d.nothingFound}
              data={productData}
              value={form.product_name || null}
              error={products.isError ? d.productsFailed : undefined}
              disabled={locked}
              onChange={(value) => {
                setForm((previous) => withProduct(previous, value ?? ''));
                clearError('instrument_id');
              }}
              comboboxProps={grid ? { width: 'min(560px, 92vw)', position: 'bottom-start' } : undefined}
              styles={
                grid ? { options: { display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' } } : undefined
              }
              maxDropdownHeight={320}
              data-testid="contract-product"
              data-grid={grid ? 'true' : 'false'}
            />
            <Select
              label={d.instrument}
              placeholder={form.product_name ? d.instrumentPlaceholder : d.instrumentDisabled}
              withAsterisk={!editing}
              searchable
              nothingFoundMessage={d.nothingFound}
              data={instrumentData}
              value={form.instrument_id || null}
              error={errors.instrument_id ?? (instruments.isError ? d.instrumentsFailed : undefined)}
              disabled={locked || form.product_name === ''}
              onChange={(value) => set('instrument_id', value ?? '')}
              data-testid="contract-instrument"
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={d.direction}
              placeholder={d.directionPlaceholder}
              withAsterisk={!editing}
              data={[
                { value: 'BUY', label: directionLabel('BUY') },
                { value: 'SELL', label: directionLabel('SELL') },
              ]}
              value={form.direction || null}
              error={errors.direction}
              disabled={locked}
              onChange={(value) => set('direction', value === 'BUY' || value === 'SELL' ? value : '')}
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
              value={form.total_quantity}
              error={errors.total_quantity}
              disabled={locked}
              onChange={(value) =>
                set('total_quantity', typeof value === 'number' ? value : value === '' ? '' : Number(value))
              }
              data-testid="contract-quantity"
            />
          </SimpleGrid>
          <TextInput
            label={d.name}
            placeholder={d.namePlaceholder}
            value={form.name}
            disabled={locked}
            maxLength={100}
            onChange={(event) => set('name', event.currentTarget.value)}
          />
          <Select
            label={d.status}
            data={statusOptions}
            value={form.status}
            allowDeselect={false}
            disabled={saving}
            onChange={(value) => {
              if (value && (CONTRACT_STATUSES as string[]).includes(value)) set('status', value as ContractStatus);
            }}
            data-testid="contract-status"
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {d.cancel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving}>
              {saving ? d.saving : editing ? d.submitEdit : d.submitCreate}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
