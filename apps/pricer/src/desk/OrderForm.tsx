import { Button, Group, Input, Loader, NumberInput, SegmentedControl, SimpleGrid, Stack, Text } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import {
  ORDER_MESSAGES,
  PRICE_STEP,
  type MarketEntry,
  type PricerAccount,
  type PricerContract,
  type SubmitOrderInput,
} from '@pfp/contract';
import { formatNumber, formatPrice, zh } from '@pfp/i18n';
import { useMemo } from 'react';
import { marginPreview } from './marginPreview';
import {
  EMPTY_ORDER_FORM,
  orderSchema,
  priceRulesOf,
  roundToTick,
  toOrderRequest,
  withOrderType,
  type OrderFormValues,
  type OrderType,
} from './orderForm';
import { asNumber, LotsInput } from './LotsInput';

const t = zh.pricer;

export interface OrderFormProps {
  contract: PricerContract | undefined;
  /** The reference (last) price of the contract's instrument, when known. */
  referencePrice: number | null;
  /** The snapshot's market entry of the instrument: its tick and the day's limit band. */
  market?: Partial<MarketEntry> | undefined;
  /** Sends the order; resolves on success (the form then resets), rejects on failure. */
  onSubmit: (order: SubmitOrderInput) => Promise<void>;
  /** Offers the third type, 条件单 (docs/conditional-orders.md): called when it is chosen. */
  onConditional?: () => void;
  /** The type selected at first (default limit). */
  initialType?: OrderType;
  /** The customer's account (docs/margin.md): the form shows the margin the fixing will hold. */
  account?: PricerAccount | undefined;
}

/** The order-type switch: limit, market and, when offered, 条件单. */
export function OrderTypeSwitch({
  value,
  onChange,
  withConditional,
}: {
  value: OrderType | 'conditional';
  onChange: (type: OrderType | 'conditional') => void;
  withConditional: boolean;
}) {
  return (
    <Input.Wrapper label={t.orderTypeLabel} id="pricer-order-type" labelElement="div">
      <SegmentedControl<OrderType | 'conditional'>
        fullWidth
        aria-labelledby="pricer-order-type-label"
        value={value}
        onChange={onChange}
        data={[
          { value: 'limit', label: t.orderType.limit },
          { value: 'market', label: t.orderType.market },
          ...(withConditional ? [{ value: 'conditional' as const, label: zh.conditional.orderType }] : []),
        ]}
      />
    </Input.Wrapper>
  );
}

/**
 * SPEC §2 "Collapsible order form": trade lots, order type, limit price, submit button. A field's
 * message shows once it was used (typed in or left); the button is disabled while any rule fails,
 * including the exchange's (tick grid, limit band), so nothing is sent that would be refused.
 */
export function OrderForm({
  contract,
  referencePrice,
  market,
  onSubmit,
  onConditional,
  initialType,
  account,
}: OrderFormProps) {
  const rules = useMemo(() => (contract ? priceRulesOf(contract, market) : null), [contract, market]);
  const validate = useMemo(() => schemaResolver(orderSchema(contract, rules), { sync: true }), [contract, rules]);
  const form = useForm<OrderFormValues>({
    initialValues: initialType ? { ...EMPTY_ORDER_FORM, orderType: initialType } : EMPTY_ORDER_FORM,
    validate,
    validateInputOnChange: ['quantity', 'price'],
    validateInputOnBlur: ['quantity', 'price'],
  });
  const busy = form.submitting;
  const isLimit = form.values.orderType === 'limit';
  const tick = rules?.price_tick;
  const band =
    rules?.lower_limit != null && rules.upper_limit != null
      ? t.priceBandHint(formatPrice(rules.lower_limit), formatPrice(rules.upper_limit))
      : null;

  const submit = async (values: OrderFormValues) => {
    if (!contract) return;
    try {
      await onSubmit(toOrderRequest(values, contract.id));
      // SPEC §4: a successful submit resets quantity and price (the order type stays).
      form.setValues({ quantity: '', price: '' });
      form.resetTouched();
      form.clearErrors();
    } catch {
      // The caller has told the user why; the form keeps its values for another try.
    }
  };

  const priceProps = form.getInputProps('price');

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t.orderForm}>
      <Stack gap="sm">
        {!contract ? (
          <Text c="red" size="sm" role="alert">
            {ORDER_MESSAGES.contract}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <LotsInput remaining={contract?.remaining_quantity} input={form.getInputProps('quantity')} />
          <OrderTypeSwitch
            value={form.values.orderType}
            withConditional={onConditional !== undefined}
            onChange={(type) => {
              if (type === 'conditional') return onConditional?.();
              form.setValues(withOrderType(form.getValues(), type));
              form.clearFieldError('price');
            }}
          />
        </SimpleGrid>
        <NumberInput
          label={t.limitPrice}
          placeholder={isLimit ? t.limitPricePlaceholder : t.market}
          description={
            isLimit
              ? [tick ? t.priceTickHint(formatNumber(tick)) : null, band].filter(Boolean).join(' · ') || undefined
              : t.marketPriceHint
          }
          disabled={!isLimit}
          allowNegative={false}
          // SPEC §5: the price steps by 0.01 and shows two decimals (¥3,007.00).
          decimalScale={2}
          fixedDecimalScale
          step={PRICE_STEP}
          min={0}
          clampBehavior="none"
          inputMode="decimal"
          prefix="¥"
          thousandSeparator=","
          withAsterisk={isLimit}
          {...priceProps}
          error={isLimit ? priceProps.error : undefined}
          onChange={(v) => priceProps.onChange(asNumber(v))}
        />
        <Group justify="space-between" gap="sm">
          {isLimit && referencePrice !== null ? (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => form.setFieldValue('price', tick ? roundToTick(referencePrice, tick) : referencePrice)}
            >
              {t.useReferencePrice}
            </Button>
          ) : (
            <span />
          )}
        </Group>
        <MarginPreview
          preview={marginPreview(
            contract,
            account,
            form.values.quantity,
            isLimit ? (form.values.price === '' ? null : form.values.price) : referencePrice,
          )}
        />
        <Button
          type="submit"
          fullWidth
          size="md"
          disabled={!contract || !form.isValid() || busy}
          leftSection={busy ? <Loader size={14} /> : undefined}
        >
          {busy ? t.submitting : t.submitOrder}
        </Button>
      </Stack>
    </form>
  );
}

/** The margin the fixing will hold and the available after it (docs/margin.md). */
function MarginPreview({ preview }: { preview: ReturnType<typeof marginPreview> }) {
  if (!preview) return null;
  const m = zh.margin.desk;
  return (
    <Text size="sm" c={preview.availableAfter < 0 ? 'red.8' : 'gray.7'} data-testid="margin-preview">
      {m.preview(formatNumber(preview.margin, 2), formatNumber(preview.availableAfter, 2))}
    </Text>
  );
}
