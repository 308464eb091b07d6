import { z } from 'zod';

/**
 * Stable codes of a failed HTTP call (ARCHITECTURE §4). The status follows from the code's kind
 * (apps/server/src/http/errors.ts); the Chinese message is for people, the code for programs.
 */
export const ERROR_CODES = [
  // 400
  'invalid_input',
  'invalid_json',
  // 401
  'unauthorized',
  // 403
  'forbidden',
  'account_disabled',
  'role_refused',
  'staff_disabled',
  'self_approval',
  // 404
  'not_found',
  // 409
  'conflict',
  'contract_not_active',
  'contract_fully_executed',
  'contract_past_deadline',
  'order_not_cancellable',
  'client_order_id_reused',
  'username_taken',
  'insufficient_margin',
  'agreement_required',
  'not_authorised_pricer',
  'request_decided',
  'request_stale',
  // a fix outside the product's trading sessions (docs/calendar.md)
  'market_closed',
  // 413, 415, 429, 500
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'account_locked',
  'internal',
  // 503: the database cannot answer now, the request deadline passed (docs/security.md), the
  // server sheds load before taking the request on (docs/performance.md), or a computation behind
  // the answer failed for now (a smile fit, docs/smile.md)
  'db_unavailable',
  'deadline_exceeded',
  'overloaded',
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBody = z.object({
  code: z.string(),
  /** Chinese, naming the field when one is at fault. */
  message: z.string(),
  /** The request field at fault (`tq_account_config.broker_name`, `sort_fields[0].field`). */
  field: z.string().optional(),
  /** Where the refusal is resolved: the call that shows what to do (the agreement to sign, issue 43). */
  link: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const errorEnvelope = z.object({ result: z.literal('error'), error: errorBody });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** `{ result: 'ok', data }` around a call's answer. */
export const ok = <T extends z.ZodType>(data: T) => z.object({ result: z.literal('ok'), data });

/** What a client receives: the answer or the error. */
export type Envelope<T> = { result: 'ok'; data: T } | ErrorEnvelope;
