import {
  Alert,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  useMediaQuery,
} from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { DateField } from '@pfp/ui';
import type { InstrumentRow } from '@pfp/contract';
import { useInstruments, useProducts } from '../shared/api';
import { TONE } from '../shared/tones';
import { parseFixings, type FormState, type Kind } from './structureForm';

const t = zh.structurePricing;
const KINDS: Kind[] = ['vanilla', 'asian', 'barrier', 'accumulator'];

export interface StructureFormProps {
  form: FormState;
  set: (patch: Partial<FormState>) => void;
  /** The goods' unit (吨 …) of the chosen future, for the labels. */
  unit: string;
  onInstrument: (instrument: InstrumentRow | undefined) => void;
  onPrice: () => void;
  onSolve: () => void;
  pending: boolean;
  /** The server's Chinese refusal, shown beside the form. */
  error: string | undefined;
}

/** 结构与条款: the structure, the future (or a what-if market), the terms the structure takes. */
export function StructureForm({ form, set, unit, onInstrument, onPrice, onSolve, pending, error }: StructureFormProps) {
  const products = useProducts(true);
  const instruments = useInstruments(form.product, true);
  const isOption = form.kind !== 'accumulator';
  // Four kinds in a row do not fit a phone (the fourth ran off the card at 375 px): one under another there.
  const phone = useMediaQuery('(max-width: 35.99em)') ?? false;
  const num = (key: keyof FormState, label: string, props: Record<string, unknown> = {}) => (
    <NumberInput
      label={label}
      value={form[key] as number | string}
      onChange={(v) => set({ [key]: v })}
      thousandSeparator=","
      data-testid={`calc-${key}`}
      {...props}
    />
  );
  const date = (key: keyof FormState, label: string) => (
    <DateField
      label={label}
      value={form[key] as string}
      onChange={(v) => set({ [key]: v })}
      data-testid={`calc-${key}`}
    />
  );
  const fixingsBad = form.fixings.trim() !== '' && parseFixings(form.fixings) === null;
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t.kind}
        data={KINDS.map((k) => ({ value: k, label: t.kinds[k] }))}
        value={form.kind}
        onChange={(v) => set({ kind: v as Kind })}
        fullWidth
        orientation={phone ? 'vertical' : 'horizontal'}
        data-testid="calc-kind"
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label={t.product}
          placeholder={t.productPlaceholder}
          data={(products.data ?? []).map((p) => ({ value: p.name, label: p.name }))}
          value={form.product || null}
          onChange={(v) => {
            set({ product: v ?? '', instrument: '' });
            onInstrument(undefined);
          }}
          searchable
          error={products.isError ? t.listsFailed : undefined}
          data-testid="calc-product"
        />
        <Select
          label={t.instrument}
          placeholder={form.product ? t.instrumentPlaceholder : t.instrumentDisabled}
          disabled={!form.product}
          data={(instruments.data ?? []).map((i) => ({ value: i.symbol, label: `${i.name}（${i.symbol}）` }))}
          value={form.instrument || null}
          onChange={(v) => {
            set({ instrument: v ?? '' });
            onInstrument(instruments.data?.find((i) => i.symbol === v));
          }}
          searchable
          error={instruments.isError ? t.listsFailed : undefined}
          data-testid="calc-instrument"
        />
      </SimpleGrid>
      <SegmentedControl
        aria-label={t.marketSource}
        data={[
          { value: 'live', label: t.sources.live },
          { value: 'whatIf', label: t.sources.whatIf },
        ]}
        value={form.live ? 'live' : 'whatIf'}
        onChange={(v) => set({ live: v === 'live' })}
        data-testid="calc-source"
      />
      {form.live ? null : (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {num('forward', t.forward(unit), { min: 0 })}
          {num('volPct', t.vol, { min: 0, decimalScale: 4 })}
          {num('ratePct', t.rate, { decimalScale: 4 })}
          {date('valuationDate', t.valuationDate)}
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {isOption ? (
          <Select
            label={t.optionType}
            data={(['call', 'put'] as const).map((v) => ({ value: v, label: t.optionTypes[v] }))}
            value={form.optionType}
            onChange={(v) => v && set({ optionType: v as FormState['optionType'] })}
            allowDeselect={false}
            data-testid="calc-optionType"
          />
        ) : (
          <Select
            label={t.side}
            data={(['buy', 'sell'] as const).map((v) => ({ value: v, label: t.sides[v] }))}
            value={form.side}
            onChange={(v) => v && set({ side: v as FormState['side'] })}
            allowDeselect={false}
            data-testid="calc-side"
          />
        )}
        {num('strike', t.strike, { min: 0 })}
        {form.kind === 'vanilla' || form.kind === 'barrier' ? date('expiry', t.expiry) : null}
        {form.kind === 'asian' ? date('averageStart', t.averageStart) : null}
        {form.kind === 'asian' ? date('averageEnd', t.averageEnd) : null}
        {form.kind === 'barrier' ? num('barrier', t.barrier, { min: 0 }) : null}
        {form.kind === 'barrier' ? (
          <Select
            label={t.barrierType}
            data={(['up_in', 'up_out', 'down_in', 'down_out'] as const).map((v) => ({
              value: v,
              label: t.barrierTypes[v],
            }))}
            value={form.barrierType}
            onChange={(v) => v && set({ barrierType: v as FormState['barrierType'] })}
            allowDeselect={false}
            data-testid="calc-barrierType"
          />
        ) : null}
        {form.kind === 'barrier' ? num('rebate', t.rebate(unit), { min: 0 }) : null}
        {form.kind === 'accumulator' ? num('barrier', t.knockOut, { min: 0 }) : null}
        {form.kind === 'accumulator' ? num('leverage', t.leverage, { min: 1, max: 10, decimalScale: 2 }) : null}
        {form.kind === 'accumulator' ? num('quantityPerDay', t.quantityPerDay(unit), { min: 0 }) : null}
        {form.kind === 'accumulator' ? date('start', t.start) : null}
        {form.kind === 'accumulator' ? date('end', t.end) : null}
        {isOption ? num('quantity', t.quantity(unit), { min: 0 }) : null}
        {num('basis', t.basis(unit))}
      </SimpleGrid>
      {form.kind === 'asian' ? (
        <TextInput
          label={t.fixings}
          value={form.fixings}
          onChange={(e) => set({ fixings: e.currentTarget.value })}
          error={fixingsBad ? t.fixingsInvalid : undefined}
          data-testid="calc-fixings"
        />
      ) : null}
      {error ? (
        <Alert color={TONE.danger} variant="light" role="alert" data-testid="calc-error">
          {t.failed(error)}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={onPrice} loading={pending} disabled={fixingsBad} data-testid="calc-price">
          {t.price}
        </Button>
        {form.kind === 'accumulator' ? (
          <Button variant="light" onClick={onSolve} loading={pending} data-testid="calc-solve">
            {t.solve}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
