import {
  createContractInput,
  DEFAULT_AVERAGE_BASIS,
  deadlineDayProblem,
  type AverageBasis,
  exchangeOfSymbol,
  type ContractRow,
  type ContractStatus,
  type CreateContractInput,
} from '@pfp/contract';
import { beijingDay, zh } from '@pfp/i18n';
import { percentToRate, rateToPercent } from '../shared/MarginRateField';

export const CONTRACT_STATUSES: ContractStatus[] = ['active', 'paused', 'expired', 'completed'];

/**
 * The create/edit dialog's form: the create-contract request's fields, unset selects as null, an
 * emptied quantity as ''. The request's own schema checks it (SPEC §5 "Contract create").
 */
export interface ContractValues {
  pricer_id: number | null;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL' | null;
  total_quantity: number | '';
  name: string;
  status: ContractStatus;
  /** 基差 (docs/fixing.md): required, 元 with up to 2 decimals, may be negative. */
  basis: number | '';
  /** 点价截止日 'YYYY-MM-DD', today or later. */
  fixing_deadline: string;
  /** 点价方式 and the average window, '' when none (issue 32). */
  pricing_mode: 'point' | 'average';
  average_start: string;
  average_end: string;
  /** 均价依据 of an average contract (issue 43): 结算价 by default. */
  average_basis: AverageBasis;
  /**
   * 保证金比例 in percent (issue 41): offered from the customer's / product's / company's rate until the
   * trader types one (`margin_touched`); a typed 0 needs `margin_zero_ok`.
   */
  margin_pct: number | '';
  margin_touched: boolean;
  margin_zero_ok: boolean;
}

export const contractSchema = createContractInput;

/** SPEC §9: a new contract starts active with 0 lots. */
export const EMPTY_CONTRACT: ContractValues = {
  pricer_id: null,
  product_name: '',
  instrument_id: '',
  direction: null,
  total_quantity: 0,
  name: '',
  status: 'active',
  basis: '',
  fixing_deadline: '',
  pricing_mode: 'point',
  average_start: '',
  average_end: '',
  average_basis: DEFAULT_AVERAGE_BASIS,
  margin_pct: '',
  margin_touched: false,
  margin_zero_ok: false,
};

export function valuesFromContract(contract: ContractRow): ContractValues {
  return {
    pricer_id: contract.pricer_id,
    product_name: contract.product_name,
    instrument_id: contract.instrument_id,
    direction: contract.direction,
    total_quantity: contract.total_quantity,
    name: contract.name,
    status: contract.status,
    basis: contract.basis,
    fixing_deadline: contract.fixing_deadline ?? '',
    pricing_mode: contract.pricing_mode ?? 'point',
    average_start: contract.average_start ?? '',
    average_end: contract.average_end ?? '',
    average_basis: contract.average_basis ?? DEFAULT_AVERAGE_BASIS,
    margin_pct: rateToPercent(contract.margin_rate ?? 0),
    margin_touched: false,
    margin_zero_ok: false,
  };
}

/**
 * What the request schema cannot know: the deadline against today in Beijing, and a trading day of
 * the future's exchange (the server's rule and message, docs/calendar.md). The basis is a
 * commercial number (fen, sign allowed) the schema checks whole; it is not tied to the futures tick.
 * Field → message; empty when fine.
 */
export function termsProblems(
  values: Pick<
    ContractValues,
    'basis' | 'fixing_deadline' | 'instrument_id' | 'margin_pct' | 'margin_touched' | 'margin_zero_ok'
  >,
  now: Date = new Date(),
): Partial<Record<'basis' | 'fixing_deadline' | 'margin_pct' | 'margin_zero_ok', string>> {
  const f = zh.fixing.errors;
  const problems: Partial<Record<'basis' | 'fixing_deadline' | 'margin_pct' | 'margin_zero_ok', string>> = {};
  // A rate the trader typed: required, and a 0 confirmed (issue 41); an offered one goes as the server resolves it.
  if (values.margin_touched && values.margin_pct === '') problems.margin_pct = zh.marginDefaults.rateInvalid;
  if (values.margin_touched && values.margin_pct === 0 && !values.margin_zero_ok)
    problems.margin_zero_ok = zh.marginDefaults.zeroConfirmRequired;
  const day = values.fixing_deadline;
  if (day && day < beijingDay(now)) problems.fixing_deadline = f.deadlinePast;
  else if (day) {
    const closed = deadlineDayProblem(exchangeOfSymbol(values.instrument_id) ?? 'SHFE', day);
    if (closed) problems.fixing_deadline = closed;
  }
  return problems;
}

/** Choosing a product resets the futures contract (SPEC §5). */
export function withProduct(values: ContractValues, product: string): ContractValues {
  return product === values.product_name ? values : { ...values, product_name: product, instrument_id: '' };
}

/** Call only on values that passed {@link contractSchema}. */
export function toCreateInput(values: ContractValues): CreateContractInput {
  return {
    name: values.name.trim(),
    pricer_id: Number(values.pricer_id),
    product_name: values.product_name,
    instrument_id: values.instrument_id,
    direction: values.direction ?? 'BUY',
    total_quantity: Number(values.total_quantity),
    status: values.status,
    basis: Number(values.basis),
    fixing_deadline: values.fixing_deadline,
    pricing_mode: values.pricing_mode,
    ...(values.margin_touched && values.margin_pct !== '' ? { margin_rate: percentToRate(values.margin_pct) } : {}),
    ...(values.pricing_mode === 'average'
      ? { average_start: values.average_start, average_end: values.average_end, average_basis: values.average_basis }
      : {}),
  };
}
