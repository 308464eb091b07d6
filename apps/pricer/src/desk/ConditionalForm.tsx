import { Button, Input, Loader, NumberInput, SegmentedControl, SimpleGrid, Stack, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import type { CreateConditionalInput, PricerContract, TriggerOp } from '@pfp/contract';
import { formatNumber, zh } from '@pfp/i18n';
import { useMemo, type ReactNode } from 'react';
import {
  conditionalSchema,
  EMPTY_CONDITIONAL_FORM,
  toConditionalRequest,
  type ConditionalFormValues,
} from './conditionalForm';
import { asNumber, LotsInput } from './LotsInput';
import { favourableTriggerOp } from './fixPreview';

const t = zh.pricer;
const k = zh.conditional;

export interface ConditionalFormProps {
  contract: PricerContract;
  /** The order-type switch (limit / market / 条件单), shown at the top like the order form's. */
  typeSwitch: ReactNode;
  /** Sends the condition; resolves on success (the form then resets), rejects on failure. */
  onSubmit: (input: CreateConditionalInput) => Promise<void>;
}

const FIELDS = ['quantity', 'triggerPrice', 'orderPrice', 'expiresAt'];

/**
 * The desk's third order type (docs/conditional-orders.md): lots, trigger direction and price,
 * the order sent when it triggers (market, or limit at a price) and how long it waits. Validated
 * like the other types, with the server's Chinese messages.
 */
export function ConditionalForm({ contract, typeSwitch, onSubmit }: ConditionalFormProps) {
  const validate = useMemo(() => schemaResolver(conditionalSchema(contract), { sync: true }), [contract]);
  const form = useForm<ConditionalFormValues>({
    // The customer's favourable side by default: a buyer waits for the price to fall (≤), a seller to rise (≥).
    initialValues: { ...EMPTY_CONDITIONAL_FORM, triggerOp: favourableTriggerOp(contract.direction) },
    validate,
    validateInputOnChange: FIELDS,
    validateInputOnBlur: FIELDS,
  });
  const busy = form.submitting;
  const isLimit = form.values.orderKind === 'limit';
  const tickHint = t.priceTickHint(formatNumber(contract.price_tick));
  const deadline = contract.fixing_deadline ? `${contract.fixing_deadline} 15:00` : null;

  const numberProps = (field: 'quantity' | 'triggerPrice' | 'orderPrice') => {
    const props = form.getInputProps(field);
    return { ...props, onChange: (v: number | string) => props.onChange(asNumber(v)) };
  };

  const submit = async (values: ConditionalFormValues) => {
    try {
      await onSubmit(toConditionalRequest(values, contract.id));
      form.setValues({ quantity: '', triggerPrice: '', orderPrice: '', expiresAt: '' });
      form.resetTouched();
      form.clearErrors();
    } catch {
      // The caller has told the user why; the form keeps its values for another try.
    }
  };

  const priceInput = {
    allowNegative: false,
    decimalScale: 2,
    fixedDecimalScale: true,
    step: contract.price_tick,
    min: 0,
    clampBehavior: 'none' as const,
    inputMode: 'decimal' as const,
    prefix: '¥',
    thousandSeparator: ',',
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={k.title}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <LotsInput remaining={contract.remaining_quantity} input={form.getInputProps('quantity')} />
          {typeSwitch}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Input.Wrapper label={k.triggerOp} id="pricer-trigger-op" labelElement="div">
            <SegmentedControl<TriggerOp>
              fullWidth
              aria-labelledby="pricer-trigger-op-label"
              value={form.values.triggerOp}
              onChange={(op) => form.setFieldValue('triggerOp', op)}
              data={[
                { value: '>=', label: k.opGte },
                { value: '<=', label: k.opLte },
              ]}
            />
          </Input.Wrapper>
          <NumberInput
            label={k.triggerPrice}
            description={tickHint}
            withAsterisk
            {...priceInput}
            {...numberProps('triggerPrice')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Input.Wrapper label={k.orderKind} id="pricer-conditional-kind" labelElement="div">
            <SegmentedControl<'market' | 'limit'>
              fullWidth
              aria-labelledby="pricer-conditional-kind-label"
              value={form.values.orderKind}
              onChange={(kind) => {
                form.setValues({ orderKind: kind, ...(kind === 'market' ? { orderPrice: '' } : {}) });
                form.clearFieldError('orderPrice');
              }}
              data={[
                { value: 'market', label: k.market },
                { value: 'limit', label: k.limit },
              ]}
            />
          </Input.Wrapper>
          <NumberInput
            label={k.orderPrice}
            placeholder={isLimit ? t.limitPricePlaceholder : k.orderPriceMarket}
            description={isLimit ? tickHint : k.orderPriceHelp}
            disabled={!isLimit}
            withAsterisk={isLimit}
            {...priceInput}
            {...numberProps('orderPrice')}
            error={isLimit ? form.getInputProps('orderPrice').error : undefined}
          />
        </SimpleGrid>
        <TextInput
          type="datetime-local"
          label={k.expiresAtInput}
          description={deadline ? `${k.expiresHelp}：${deadline}` : k.expiresHelp}
          {...form.getInputProps('expiresAt')}
        />
        <Button
          type="submit"
          fullWidth
          size="md"
          disabled={!form.isValid() || busy}
          leftSection={busy ? <Loader size={14} /> : undefined}
        >
          {busy ? k.submitting : k.submit}
        </Button>
      </Stack>
    </form>
  );
}
