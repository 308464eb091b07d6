import { Card, Loader, SimpleGrid, Stack, Text, Title } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { InstrumentRow, PriceStructureResult } from '@pfp/contract';
import { lazy, Suspense, useState } from 'react';
import { errorText, usePriceStructure } from '../shared/api';
import { PageLayout } from '../shared/PageLayout';
import type { PayoffTerms } from './payoff';
import { ResultFigures, VolTable, type Priced } from './ResultCard';
import { StructureForm } from './StructureForm';
import { initialForm, numOf, toInput, type FormState } from './structureForm';

const t = zh.structurePricing;
const PayoffChart = lazy(() => import('./PayoffChart'));
/** The goods' unit until the server names the future's (most of the catalogue's are 吨). */
const DEFAULT_UNIT = '吨';

/** The chart's terms: the form as priced, the premium per unit (an accumulator's value over its most quantity). */
function payoffTerms(f: FormState, r: PriceStructureResult, strike: number | undefined): PayoffTerms | null {
  if (strike === undefined) return null;
  const maxQty = (numOf(f.quantityPerDay) ?? 0) * (r.observations ?? 0);
  return {
    kind: f.kind,
    forward: r.forward,
    basis: numOf(f.basis) ?? 0,
    premium: f.kind === 'accumulator' ? (maxQty > 0 ? r.price / maxQty : 0) : r.price,
    optionType: f.optionType,
    strike,
    barrier: numOf(f.barrier),
    barrierType: f.barrierType,
    rebate: numOf(f.rebate),
    side: f.side,
    leverage: numOf(f.leverage),
  };
}

/** /trader/pricing: 含权报价 (issue 44 item 4, docs/pricing.md) — prices a structure; changes nothing. */
export function StructurePricingPage() {
  const [form, setForm] = useState<FormState>(initialForm);
  const [instrument, setInstrument] = useState<InstrumentRow | undefined>();
  const [priced, setPriced] = useState<(Priced & { terms: PayoffTerms | null }) | null>(null);
  const [error, setError] = useState<string | undefined>();
  const mutation = usePriceStructure();
  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const unit = priced?.unit ?? DEFAULT_UNIT;

  const run = (solve: boolean) => {
    setError(undefined);
    const snapshot = form;
    mutation.mutate(toInput(snapshot, solve), {
      onSuccess: (r) => {
        // The zero-cost strike fills the form, rounded to the cent (its price stays ~0).
        const strike = solve && r.strike !== undefined ? Math.round(r.strike * 100) / 100 : numOf(snapshot.strike);
        if (solve && strike !== undefined) set({ strike });
        setPriced({
          result: r,
          kind: snapshot.kind,
          quantity: numOf(snapshot.quantity) ?? 0,
          quantityPerDay: numOf(snapshot.quantityPerDay) ?? 0,
          strike,
          multiplier: r.multiplier ?? instrument?.volume_multiple,
          unit: r.unit ?? DEFAULT_UNIT,
          terms: payoffTerms(snapshot, r, strike),
        });
      },
      onError: (e) => setError(errorText(e)),
    });
  };

  return (
    <PageLayout subtitle={t.subtitle}>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Stack gap="md">
          <Card withBorder radius="md" padding="md">
            <Title order={3} size="h4" mb="xs">
              {t.formTitle}
            </Title>
            <StructureForm
              form={form}
              set={set}
              unit={unit}
              onInstrument={setInstrument}
              onPrice={() => run(false)}
              onSolve={() => run(true)}
              pending={mutation.isPending}
              error={error}
            />
          </Card>
          {priced ? (
            <Card withBorder radius="md" padding="md">
              <Title order={3} size="h4" mb="xs">
                {t.volTitle}
              </Title>
              <VolTable priced={priced} />
            </Card>
          ) : null}
        </Stack>
        <Stack gap="md">
          <Card withBorder radius="md" padding="md" data-testid="calc-result">
            <Title order={3} size="h4" mb="xs">
              {t.resultTitle}
            </Title>
            {priced ? (
              <ResultFigures priced={priced} />
            ) : (
              <Text size="sm" c="dimmed">
                {t.empty}
              </Text>
            )}
          </Card>
          {priced?.terms ? (
            <Card withBorder radius="md" padding="md">
              <Title order={3} size="h4" mb="xs">
                {t.payoffTitle}
              </Title>
              <Suspense fallback={<Loader size="sm" />}>
                <PayoffChart terms={priced.terms} unit={priced.unit} />
              </Suspense>
              <Text size="xs" c="dimmed" mt="xs">
                {priced.kind === 'accumulator'
                  ? t.payoffNote.accumulator
                  : priced.kind === 'barrier'
                    ? `${t.payoffNote[priced.terms.optionType]}；${t.payoffNote.barrier}`
                    : t.payoffNote[priced.terms.optionType]}
              </Text>
            </Card>
          ) : null}
        </Stack>
      </SimpleGrid>
    </PageLayout>
  );
}
