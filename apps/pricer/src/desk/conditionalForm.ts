import {
  conditionalProblem,
  onTickGrid,
  ORDER_MESSAGES,
  type CreateConditionalInput,
  type PricerContract,
  type TriggerOp,
} from '@pfp/contract';
import { formatNumber, zh } from '@pfp/i18n';
import { z } from 'zod';

const E = zh.conditional.errors;

/** The desk's 条件单 form (docs/conditional-orders.md); contract_id is the desk's selection. */
export interface ConditionalFormValues {
  quantity: number | '';
  triggerOp: TriggerOp;
  triggerPrice: number | '';
  /** What is sent when it triggers. */
  orderKind: 'market' | 'limit';
  orderPrice: number | '';
  /** 'YYYY-MM-DDTHH:mm', Beijing time (a datetime-local input); '' = the deadline's close. */
  expiresAt: string;
}

export const EMPTY_CONDITIONAL_FORM: ConditionalFormValues = {
  quantity: '',
  triggerOp: '>=',
  triggerPrice: '',
  orderKind: 'market',
  orderPrice: '',
  expiresAt: '',
};

const number = (v: number | '') => (v === '' ? NaN : v);

/** A datetime-local value read as Beijing time (the platform's clock for deadlines); null if unreadable. */
export function beijingInstant(local: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return null;
  const d = new Date(`${local.length === 16 ? `${local}:00` : local}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The close (15:00 Beijing) of a deadline day. */
export const deadlineCloseOf = (deadline: string) => new Date(`${deadline}T15:00:00+08:00`);

/**
 * The form's schema for one contract: the contract's shared rules (quantity, prices), the tick grid
 * of both prices, and the validity (in the future, not after the deadline's close) — the server
 * says the same with the same messages.
 */
export function conditionalSchema(
  contract: Pick<PricerContract, 'remaining_quantity' | 'price_tick' | 'fixing_deadline'> | undefined,
  now: () => Date = () => new Date(),
) {
  return z.custom<ConditionalFormValues>().superRefine((v, ctx) => {
    if (!contract) {
      ctx.addIssue({ code: 'custom', path: ['contract'], message: ORDER_MESSAGES.contract });
      return;
    }
    const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const limit = v.orderKind === 'limit';
    const problem = conditionalProblem(
      {
        quantity: number(v.quantity),
        trigger_price: number(v.triggerPrice),
        order_price: limit && v.orderPrice !== '' ? v.orderPrice : 0, // an empty limit price: said below
      },
      contract.remaining_quantity,
    );
    const fieldOf = { quantity: 'quantity', trigger_price: 'triggerPrice', order_price: 'orderPrice' } as const;
    if (problem) add(fieldOf[problem.field], problem.message);
    const tick = contract.price_tick;
    const tickText = formatNumber(tick);
    if (problem?.field !== 'trigger_price' && v.triggerPrice !== '' && !onTickGrid(v.triggerPrice, tick))
      add('triggerPrice', E.triggerPriceTick(tickText));
    if (limit && problem?.field !== 'order_price') {
      if (v.orderPrice === '' || v.orderPrice <= 0) add('orderPrice', ORDER_MESSAGES.limitNeedsPrice);
      else if (!onTickGrid(v.orderPrice, tick)) add('orderPrice', E.orderPriceTick(tickText));
    }
    if (v.expiresAt !== '') {
      const at = beijingInstant(v.expiresAt);
      if (!at) add('expiresAt', E.expiresAt);
      else if (at.getTime() <= now().getTime()) add('expiresAt', E.expiresPast);
      else if (contract.fixing_deadline && at.getTime() > deadlineCloseOf(contract.fixing_deadline).getTime())
        add('expiresAt', E.expiresAfterDeadline(contract.fixing_deadline));
    }
  });
}

/** The create-conditional-order body: a market order is sent with order_price 0. */
export function toConditionalRequest(v: ConditionalFormValues, contractId: number): CreateConditionalInput {
  const at = v.expiresAt ? beijingInstant(v.expiresAt) : null;
  return {
    contract_id: contractId,
    quantity: Number(v.quantity),
    trigger_op: v.triggerOp,
    trigger_price: Number(v.triggerPrice),
    order_price: v.orderKind === 'limit' ? Number(v.orderPrice) : 0,
    ...(at ? { expires_at: at.toISOString() } : {}),
  };
}
