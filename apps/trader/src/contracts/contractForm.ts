import { zh } from '@pfp/i18n';
import type { ContractRow, ContractStatus, CreateContractInput } from '@pfp/contract';

export const CONTRACT_STATUSES: ContractStatus[] = ['active', 'paused', 'expired', 'completed'];

/** The create/edit dialog's form; selects hold strings ('' = nothing chosen). */
export interface ContractForm {
  pricer_id: string;
  product_name: string;
  instrument_id: string;
  direction: '' | 'BUY' | 'SELL';
  total_quantity: number | '';
  name: string;
  status: ContractStatus;
}

export type ContractField = 'pricer_id' | 'instrument_id' | 'direction' | 'total_quantity';
export type ContractErrors = Partial<Record<ContractField, string>>;

/** SPEC §9: a new contract starts active with 0 lots. */
export const EMPTY_CONTRACT_FORM: ContractForm = {
  pricer_id: '',
  product_name: '',
  instrument_id: '',
  direction: '',
  total_quantity: 0,
  name: '',
  status: 'active',
};

export function formFromContract(contract: ContractRow): ContractForm {
  return {
    pricer_id: String(contract.pricer_id),
    product_name: contract.product_name,
    instrument_id: contract.instrument_id,
    direction: contract.direction,
    total_quantity: contract.total_quantity,
    name: contract.name,
    status: contract.status,
  };
}

/** SPEC §5 "Contract create". */
export function validateContract(form: ContractForm): ContractErrors {
  const e = zh.trader.contracts.errors;
  const errors: ContractErrors = {};
  if (!form.pricer_id) errors.pricer_id = e.pricer;
  if (!form.instrument_id) errors.instrument_id = e.instrument;
  if (!form.direction) errors.direction = e.direction;
  const quantity = form.total_quantity;
  if (quantity === '' || !(quantity > 0)) errors.total_quantity = e.totalQuantity;
  else if (!Number.isInteger(quantity)) errors.total_quantity = e.totalQuantityInteger;
  return errors;
}

/** Choosing a product resets the futures contract (SPEC §5). */
export function withProduct(form: ContractForm, product: string): ContractForm {
  return product === form.product_name ? form : { ...form, product_name: product, instrument_id: '' };
}

/** Call only on a form that passed {@link validateContract}. */
export function toCreateInput(form: ContractForm): CreateContractInput {
  return {
    name: form.name.trim(),
    pricer_id: Number(form.pricer_id),
    product_name: form.product_name,
    instrument_id: form.instrument_id,
    direction: form.direction as 'BUY' | 'SELL',
    total_quantity: Number(form.total_quantity),
    status: form.status,
  };
}
