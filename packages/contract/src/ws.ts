import { z } from 'zod';
import { text } from './primitives';

/**
 * The WebSocket view protocol (SPEC §7 WebSocket, ARCHITECTURE §5) on /ws and /ws/volatility.
 * Every request but peek_message carries a req_id; its one reply carries the same req_id.
 */

const reqId = text('缺少 req_id').min(1, { error: '缺少 req_id' }).max(200);
const viewId = text('缺少 view_id').min(1, { error: '缺少 view_id' }).max(200);
const params = z.record(z.string(), z.unknown());

// ---- Client → server ------------------------------------------------------------------------------

/** The view's own params come in `params` or beside the protocol fields (both are merged). */
export const subscribeView = z.looseObject({
  aid: z.literal('subscribe_view'),
  req_id: reqId,
  view_id: viewId,
  view_name: z.string().optional(),
  /** Defaults to view_name. */
  data_source: z.string().optional(),
  params: params.optional(),
});
export const unsubscribeView = z.object({ aid: z.literal('unsubscribe_view'), req_id: reqId, view_id: viewId });
/** Answered as soon as a subscribed view has changes; a held peek is answered once one has. */
export const peekMessage = z.object({ aid: z.literal('peek_message'), req_id: z.string().optional() });
export const startTask = z.object({
  aid: z.literal('start_task'),
  req_id: reqId,
  task_name: z.string(),
  params: params.optional(),
});
export const interveneTask = z.object({
  aid: z.literal('intervene_task'),
  req_id: reqId,
  params: z.object({ task_id: z.string(), intervention: z.string(), params: params.optional() }),
});

export const wsRequest = z.discriminatedUnion('aid', [
  subscribeView,
  unsubscribeView,
  peekMessage,
  startTask,
  interveneTask,
]);
export type WsRequest = z.input<typeof wsRequest>;
export type WsAction = WsRequest['aid'];

// ---- Server → client ------------------------------------------------------------------------------

export const wsOkReply = z.object({ aid: z.string(), req_id: z.unknown(), result: z.literal('ok'), data: z.unknown() });
export const wsErrorReply = z.object({
  aid: z.string(),
  req_id: z.unknown(),
  result: z.literal('error'),
  error: z.object({ code: z.string(), message: z.string() }),
});
/** peek_message's answer: the merged pending patches keyed by view_id. */
export const peekReply = z.object({
  aid: z.literal('peek_message'),
  req_id: z.string(),
  result: z.literal('ok'),
  data: z.record(z.string(), params),
});
/** What a running task pushes. */
export const taskData = z.object({ aid: z.literal('task_data'), task_id: z.string(), data: z.unknown() });
export const startTaskResult = z.object({ task_id: z.string() });

export const wsReply = z.union([wsOkReply, wsErrorReply]);
export type WsReply = z.infer<typeof wsReply>;

/** Error codes of a failed WebSocket request. */
export const WS_ERROR_CODES = [
  'BAD_MESSAGE',
  'MISSING_REQ_ID',
  'UNKNOWN_AID',
  'BAD_PARAMS',
  'DUPLICATE_VIEW',
  'TOO_MANY_VIEWS',
  'UNKNOWN_VIEW',
  'UNKNOWN_VIEW_ID',
  'UNSUBSCRIBED',
  'UNAUTHORIZED',
  'UNKNOWN_TASK',
  'UNKNOWN_TASK_ID',
  'TOO_MANY_TASKS',
  'INTERNAL',
] as const;
export type WsErrorCode = (typeof WS_ERROR_CODES)[number];

// ---- The volatility view ----------------------------------------------------------------------------

export const VOLATILITY_VIEW = { viewName: 'volatility-curves-view', dataSource: 'volatility_curves' } as const;
export const OPTION_TYPES = ['CALL', 'PUT'] as const;
export const PRICE_TYPES = ['ask', 'bid', 'mid', 'last'] as const;
export const MAX_CURVE_ITEMS = 32;

export const curveItem = z.object({
  /** The future, e.g. SHFE.cu2601. */
  symbol: z.string(),
  option_type: z.enum(OPTION_TYPES),
  price_type: z.enum(PRICE_TYPES),
});
export type CurveItem = z.infer<typeof curveItem>;
export const volatilityParams = z.object({ items: z.array(curveItem).min(1).max(MAX_CURVE_ITEMS) });
export type VolatilityParams = z.infer<typeof volatilityParams>;

/**
 * KEY = `{future}-{optionType}-{priceType}`; points [strike, iv] with strikes ascending, iv 0 for a strike
 * whose point went away (SPEC §3: 0 is missing). `tick_time`: the server time (epoch ms) of the market
 * tick the curve was computed from.
 */
export const curveKey = (future: string, optionType: CurveItem['option_type'], priceType: CurveItem['price_type']) =>
  `${future}-${optionType}-${priceType}`;
export const curvePatch = z.object({
  patch: z.record(
    z.string(),
    z.object({
      _key: z.string(),
      curve_data: z.array(z.tuple([z.number(), z.number()])),
      tick_time: z.number().optional(),
    }),
  ),
});
export type CurvePatch = z.infer<typeof curvePatch>;
