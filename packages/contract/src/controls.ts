import { z } from 'zod';
import { contractStatus, pricerStatus } from './entities';
import { id } from './primitives';

/**
 * The trader's controls stop what they name (issue 30): before a pause (暂停) or a 停用 the console
 * reads what it will stop, and says it in the confirmation.
 */

/** What a pause or a 停用 will do: working orders cancelled, waiting 条件单 suspended or cancelled. */
export const stopPreview = z.object({
  /** PENDING or ALIVE orders: cancelled (PENDING) or cancelled at the exchange (ALIVE). */
  working_orders: z.number().int(),
  /** Their unfilled lots. */
  working_lots: z.number().int(),
  /** 条件单 still waiting: suspended by a pause, cancelled by a 停用. */
  waiting_conditionals: z.number().int(),
  waiting_conditional_lots: z.number().int(),
});
export type StopPreview = z.infer<typeof stopPreview>;

/** POST /api/trader/view/contract-pause-preview */
export const contractPausePreviewInput = z.object({ contract_id: id() }, { error: '请求参数必须是 JSON 对象' });
export type ContractPausePreviewInput = z.input<typeof contractPausePreviewInput>;
export const contractPausePreview = stopPreview.extend({ contract_id: z.number().int(), status: contractStatus });
export type ContractPausePreview = z.infer<typeof contractPausePreview>;

/** POST /api/trader/view/pricer-deactivate-preview */
export const pricerDeactivatePreviewInput = z.object({ user_id: id() }, { error: '请求参数必须是 JSON 对象' });
export type PricerDeactivatePreviewInput = z.input<typeof pricerDeactivatePreviewInput>;
export const pricerDeactivatePreview = stopPreview.extend({ user_id: z.number().int(), status: pricerStatus });
export type PricerDeactivatePreview = z.infer<typeof pricerDeactivatePreview>;

/** POST /api/trader/rpc/unlock-pricer: the customer's login failures forgotten (issue 30). */
export const unlockPricerInput = z.object({ user_id: id() }, { error: '请求参数必须是 JSON 对象' });
export type UnlockPricerInput = z.input<typeof unlockPricerInput>;
export const unlockPricerResult = z.object({ user_id: z.number().int() });
