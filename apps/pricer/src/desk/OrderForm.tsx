import { Button, Group, Input, Loader, NumberInput, SegmentedControl, SimpleGrid, Stack, Text } from '@pfp/mantine';
import { formatNumber, zh } from '@pfp/i18n';
import { useState, type FormEvent } from 'react';
import type { PricerContract, SubmitOrderInput } from '@pfp/contract';
import {
  EMPTY_ORDER_FORM,
  roundToTick,
  toOrderRequest,
  validateOrder,
  withOrderType,
  type OrderFormValues,
  type OrderType,
} from './orderForm';

const t = zh.pricer;

export interface OrderFormProps {
  contract: PricerContract | undefined;
  /** The reference (last) price of the contract's instrument, when known. */
  referencePrice: number | null;
  /** Sends the order; resolves on success (the form then resets), rejects on failure. */
  onSubmit: (order: SubmitOrderInput) => Promise<void>;
}

function asNumber(value: number | string): number | '' {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n : '';
}

/** SPEC §2 "Collapsible order form": trade lots, order type, limit price, submit button. */
export function OrderForm({ contract, referencePrice, onSubmit }: OrderFormProps) {
  const [values, setValues] = useState<OrderFormValues>(EMPTY_ORDER_FORM);
  const [touched, setTouched] = useState({ quantity: false, price: false });
  const [busy, setBusy] = useState(false);
  const error = validateOrder(values, contract);
  const tick = contract?.price_tick;
  const isLimit = values.orderType === 'limit';

  // A field's message shows once it was used; the contract's at once; the button is disabled either way.
  const quantityShown = touched.quantity || values.quantity !== '';
  const priceShown = touched.price || values.price !== '';
  const messageOf = (field: 'quantity' | 'price', shown: boolean) =>
    error?.field === field && shown ? error.message : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched({ quantity: true, price: true });
    if (error || !contract || busy) return;
    setBusy(true);
    try {
      await onSubmit(toOrderRequest(values, contract.id));
      // SPEC §4: a successful submit resets quantity and price (the order type stays).
      setValues((v) => ({ ...v, quantity: '', price: '' }));
      setTouched({ quantity: false, price: false });
    } catch {
      // The caller has told the user why; the form keeps its values for another try.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t.orderForm}>
      <Stack gap="sm">
        {error?.field === 'contract' ? (
          <Text c="red" size="sm" role="alert">
            {error.message}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput
            label={t.tradeLots}
            placeholder={contract ? t.remainingShort(formatNumber(contract.remaining_quantity)) : undefined}
            value={values.quantity}
            onChange={(v) => setValues((s) => ({ ...s, quantity: asNumber(v) }))}
            onBlur={() => setTouched((s) => ({ ...s, quantity: true }))}
            allowDecimal={false}
            allowNegative={false}
            min={1}
            clampBehavior="none"
            inputMode="numeric"
            error={messageOf('quantity', quantityShown)}
            withAsterisk
          />
          <Input.Wrapper label={t.orderTypeLabel} id="pricer-order-type" labelElement="div">
            <SegmentedControl<OrderType>
              fullWidth
              aria-labelledby="pricer-order-type-label"
              value={values.orderType}
              onChange={(type) => {
                setValues((s) => withOrderType(s, type));
                setTouched((s) => ({ ...s, price: false }));
              }}
              data={[
                { value: 'limit', label: t.orderType.limit },
                { value: 'market', label: t.orderType.market },
              ]}
            />
          </Input.Wrapper>
        </SimpleGrid>
        <NumberInput
          label={t.limitPrice}
          placeholder={isLimit ? t.limitPricePlaceholder : t.market}
          description={isLimit ? (tick ? t.priceTickHint(formatNumber(tick)) : undefined) : t.marketPriceHint}
          value={values.price}
          onChange={(v) => setValues((s) => ({ ...s, price: asNumber(v) }))}
          onBlur={() => setTouched((s) => ({ ...s, price: true }))}
          disabled={!isLimit}
          allowNegative={false}
          decimalScale={2}
          step={tick && tick > 0 ? tick : 0.01}
          min={0}
          clampBehavior="none"
          inputMode="decimal"
          prefix="¥"
          thousandSeparator=","
          error={isLimit ? messageOf('price', priceShown) : undefined}
          withAsterisk={isLimit}
        />
        <Group justify="space-between" gap="sm">
          {isLimit && referencePrice !== null ? (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() =>
                setValues((s) => ({ ...s, price: tick ? roundToTick(referencePrice, tick) : referencePrice }))
              }
            >
              {t.useReferencePrice}
            </Button>
          ) : (
            <span />
          )}
        </Group>
        <Button
          type="submit"
          fullWidth
          size="md"
          disabled={error !== null || busy}
          leftSection={busy ? <Loader size={14} /> : undefined}
        >
          {busy ? t.submitting : t.submitOrder}
        </Button>
      </Stack>
    </form>
  );
}
