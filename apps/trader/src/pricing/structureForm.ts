import type { PriceStructureInput, StructureTerms } from '@pfp/contract';

/** 含权报价's form (docs/pricing.md): what the trader typed, turned into the call's terms. */
export type Kind = StructureTerms['kind'];
export type Num = number | string;

export interface FormState {
  kind: Kind;
  product: string;
  instrument: string;
  live: boolean;
  forward: Num;
  /** Percent, as typed (30 = 0.30). */
  volPct: Num;
  ratePct: Num;
  valuationDate: string;
  optionType: 'call' | 'put';
  strike: Num;
  expiry: string;
  averageStart: string;
  averageEnd: string;
  fixings: string;
  barrier: Num;
  barrierType: 'up_in' | 'up_out' | 'down_in' | 'down_out';
  rebate: Num;
  side: 'buy' | 'sell';
  leverage: Num;
  quantityPerDay: Num;
  start: string;
  end: string;
  /** 吨 (the product's unit) for the options' 元 and 手. */
  quantity: Num;
  /** 基差, 元 per unit: the plain contract's price is the future's + this. */
  basis: Num;
}

export const initialForm = (): FormState => ({
  kind: 'vanilla',
  product: '',
  instrument: '',
  live: true,
  forward: '',
  volPct: '',
  ratePct: 1.5,
  valuationDate: '',
  optionType: 'call',
  strike: '',
  expiry: '',
  averageStart: '',
  averageEnd: '',
  fixings: '',
  barrier: '',
  barrierType: 'up_out',
  rebate: 0,
  side: 'buy',
  leverage: 2,
  quantityPerDay: '',
  start: '',
  end: '',
  quantity: 100,
  basis: 0,
});

/** A NumberInput's value: a number once one is typed, else none (the server names the missing field). */
export const numOf = (v: Num): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const day = (v: string) => (v ? v.slice(0, 10) : undefined);

/** The fixings typed as "5000, 5010，4990": numbers, or null when one is not a positive number. */
export function parseFixings(text: string): number[] | null {
  const parts = text
    .split(/[,，\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const nums = parts.map(Number);
  return nums.every((n) => Number.isFinite(n) && n > 0) ? nums : null;
}

/** Only the terms the structure takes; an absent one is left out so the server's 400 names it. */
export function toInput(f: FormState, solve = false): PriceStructureInput {
  const common = { kind: f.kind, instrument_id: f.instrument };
  const option = { option_type: f.optionType, strike: numOf(f.strike) };
  const structure: StructureTerms =
    f.kind === 'vanilla'
      ? { ...common, ...option, expiry: day(f.expiry) }
      : f.kind === 'asian'
        ? {
            ...common,
            ...option,
            average_start: day(f.averageStart),
            average_end: day(f.averageEnd),
            fixings: parseFixings(f.fixings) ?? [],
          }
        : f.kind === 'barrier'
          ? {
              ...common,
              ...option,
              expiry: day(f.expiry),
              barrier: numOf(f.barrier),
              barrier_type: f.barrierType,
              rebate: numOf(f.rebate) ?? 0,
            }
          : {
              ...common,
              side: f.side,
              barrier: numOf(f.barrier),
              leverage: numOf(f.leverage),
              quantity_per_day: numOf(f.quantityPerDay),
              start: day(f.start),
              end: day(f.end),
              ...(solve ? { solve: 'strike' as const } : { strike: numOf(f.strike) }),
            };
  const clean = Object.fromEntries(Object.entries(structure).filter(([, v]) => v !== undefined)) as StructureTerms;
  if (f.live) return { structure: clean };
  const vol = numOf(f.volPct);
  const rate = numOf(f.ratePct);
  return {
    structure: clean,
    // Missing what-if figures go as they are (NaN is refused by the schema with the field's Chinese name).
    market: {
      forward: numOf(f.forward) ?? Number.NaN,
      vol: vol === undefined ? Number.NaN : vol / 100,
      rate: rate === undefined ? Number.NaN : rate / 100,
      valuation_date: day(f.valuationDate) ?? '',
    },
  };
}
