import { randomUUID } from 'node:crypto';
import { firstIssue, interveneTask, safeParseZh, startTask, subscribeView, wsRequest } from '@pfp/contract';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { Logger } from '../logger';
import { DEFAULT_WS_LIMITS, MessageRate, WS_LIMIT_MESSAGES, type ViewBudget, type WsLimits } from './limits';
import { mergeInto } from './merge';
import { WsError, type TaskHandle, type ViewSubscription, type WsRegistry } from './registry';

interface View {
  id: string;
  name: string;
  sub?: ViewSubscription;
  pending?: Record<string, unknown>;
  /** `pending` is a source's object shared with other connections: never mutate it. */
  shared?: Record<string, unknown>;
  /** What the view holds of the server (e.g. the futures whose chains it keeps computed). */
  resources?: string[];
  /** Its resources are counted in the connection's budget (given back once, by drop). */
  budgeted?: boolean;
}

/**
 * The UTF-8 JSON of a patch object, encoded once per object: a source shares one patch between every subscriber of an
 * update, so the fan-out only copies these bytes into each client's frame (docs/market.md, "Fan-out").
 */
const jsonCache = new WeakMap<object, Buffer>();
function toJson(value: Record<string, unknown>): Buffer {
  let json = jsonCache.get(value);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(value));
    jsonCache.set(value, json);
  }
  return json;
}
const PEEK_END = Buffer.from('}}');

const MAX_TASKS = 16;
/** The actions the protocol knows: a message naming another gets UNKNOWN_AID rather than a schema complaint. */
const ACTIONS = new Set<string>(wsRequest.options.map((o) => o.shape.aid.value));

/**
 * One client of the view protocol (ARCHITECTURE §5). Every request carries a req_id and gets
 * exactly one reply with that req_id; nothing a client sends can crash the connection.
 */
export class ViewConnection {
  private readonly views = new Map<string, View>();
  private readonly tasks = new Map<string, TaskHandle>();
  private heldPeek: string | undefined;
  private closed = false;
  private readonly rate: MessageRate;
  private refusedInARow = 0;
  private readonly authenticated: boolean;

  constructor(
    private readonly socket: WebSocket,
    private readonly registry: WsRegistry,
    /** Who the token is (truthy), or false when anonymous: the sources decide what each caller may see. */
    private readonly caller: unknown,
    private readonly log: Logger,
    private readonly limits: WsLimits = DEFAULT_WS_LIMITS,
    /**
     * The budget its views' resources count against: the server's anonymous futures, or the caller's
     * company's (none: unbounded, e.g. in unit tests).
     */
    private readonly budget?: ViewBudget,
  ) {
    this.authenticated = Boolean(caller);
    this.rate = new MessageRate(limits.maxMessagesPerSecond);
    socket.on('message', (raw: Buffer) => {
      // Limits first (ws/limits.ts): refused messages are not even parsed.
      if (!this.rate.take()) {
        // A client that keeps flooding after many refusals is cut off (1008 policy violation).
        if (++this.refusedInARow > limits.maxMessagesPerSecond * 10) socket.close(1008, 'message rate');
        else this.fail(null, 'error', 'RATE_LIMITED', WS_LIMIT_MESSAGES.tooFast);
        return;
      }
      this.refusedInARow = 0;
      if (raw.length > limits.maxMessageBytes)
        return this.fail(null, 'error', 'MESSAGE_TOO_LARGE', WS_LIMIT_MESSAGES.tooLarge(limits.maxMessageBytes));
      void this.onMessage(raw.toString());
    });
    socket.on('close', () => this.dispose());
    socket.on('error', () => this.dispose());
  }

  private send(msg: Record<string, unknown>) {
    if (!this.closed && this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  private reply(reqId: unknown, aid: string, data: unknown) {
    this.send({ aid, req_id: reqId, result: 'ok', data });
  }

  private fail(reqId: unknown, aid: string, code: string, message: string) {
    this.send({ aid, req_id: reqId, result: 'error', error: { code, message } });
  }

  private async onMessage(text: string) {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = undefined;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      return this.fail(null, 'error', 'BAD_MESSAGE', '消息不是有效的 JSON 对象');
    }
    const raw = msg as Record<string, unknown>;
    const aid = typeof raw.aid === 'string' ? raw.aid : '';
    const reqId = raw.req_id ?? null;
    // The contract's schemas (packages/contract ws.ts) decide what a request is; their Chinese messages name the field.
    const parsed = safeParseZh(wsRequest, raw);
    if (!parsed.success) {
      if (!ACTIONS.has(aid)) return this.fail(reqId, aid || 'error', 'UNKNOWN_AID', `不支持的操作：${aid || '(空)'}`);
      const { message, field } = firstIssue(parsed.error);
      const missingReqId = field === 'req_id' && (raw.req_id === undefined || raw.req_id === null || raw.req_id === '');
      return this.fail(reqId, aid, missingReqId ? 'MISSING_REQ_ID' : 'BAD_PARAMS', message);
    }
    const req = parsed.data;
    try {
      switch (req.aid) {
        case 'subscribe_view':
          return this.reply(reqId, aid, await this.subscribe(req));
        case 'unsubscribe_view':
          return this.reply(reqId, aid, this.unsubscribe(req.view_id));
        case 'peek_message':
          return this.peek(req.req_id ?? '');
        case 'start_task':
          return this.reply(reqId, aid, await this.startTask(req));
        case 'intervene_task':
          return this.reply(reqId, aid, await this.intervene(req));
      }
    } catch (e) {
      if (e instanceof WsError) return this.fail(reqId, aid, e.code, e.message);
      this.log.warn({ err: e, aid }, 'ws request failed');
      return this.fail(reqId, aid, 'INTERNAL', '服务器内部错误');
    }
  }

  private async subscribe(msg: z.output<typeof subscribeView>) {
    const viewId = msg.view_id;
    if (this.views.has(viewId)) throw new WsError('DUPLICATE_VIEW', `视图 ${viewId} 已订阅`);
    if (this.views.size >= this.limits.maxViews)
      throw new WsError('TOO_MANY_VIEWS', WS_LIMIT_MESSAGES.tooManyViews(this.limits.maxViews));
    const viewName = msg.view_name ?? '';
    const sourceName = msg.data_source ?? viewName;
    const source = this.registry.sources.get(sourceName);
    if (!source) throw new WsError('UNKNOWN_VIEW', `未知的数据源：${sourceName || '(空)'}`);
    if (!source.public && !this.authenticated) throw new WsError('UNAUTHORIZED', '认证失败: 未授权访问');
    const { aid: _a, req_id: _r, view_id: _v, view_name: _n, data_source: _d, params, ...rest } = msg;
    const merged: Record<string, unknown> = { ...rest, ...params };
    const resources = source.resources?.(merged) ?? [];
    if (resources.length > 0) {
      const held = new Set([...this.views.values()].flatMap((v) => v.resources ?? []));
      for (const r of resources) held.add(r);
      if (held.size > this.limits.maxFutures)
        throw new WsError('TOO_MANY_FUTURES', WS_LIMIT_MESSAGES.tooManyFutures(this.limits.maxFutures));
    }
    const budgeted = this.budget !== undefined && resources.length > 0;
    const refused = budgeted ? this.budget!.take(resources) : null;
    if (refused !== null) throw new WsError('TOO_MANY_FUTURES', refused);
    const view: View = { id: viewId, name: viewName, resources, ...(budgeted ? { budgeted: true } : {}) };
    this.views.set(viewId, view); // reserve the id while the source computes its initial data
    try {
      view.sub = await source.subscribe(
        merged,
        (patch) => this.push(view, patch),
        this.authenticated ? this.caller : undefined,
      );
    } catch (e) {
      if (this.views.get(viewId) === view) this.drop(view);
      throw e;
    }
    if (this.closed || this.views.get(viewId) !== view) {
      view.sub.close();
      throw new WsError('UNSUBSCRIBED', '视图已取消订阅');
    }
    return view.sub.initial;
  }

  private unsubscribe(viewId: string) {
    const view = this.views.get(viewId);
    if (!view) throw new WsError('UNKNOWN_VIEW_ID', `视图 ${viewId} 未订阅`);
    view.sub?.close();
    this.drop(view);
    return { view_id: viewId };
  }

  private push(view: View, patch: Record<string, unknown>) {
    if (this.views.get(view.id) !== view) return;
    // The first patch is kept as is (sources share one object between subscribers, and its JSON
    // is then built once); only a second patch before the peek needs a merged copy.
    view.pending = view.pending
      ? mergeInto(view.pending === view.shared ? mergeInto({}, view.pending) : view.pending, patch)
      : patch;
    view.shared = view.pending === patch ? patch : undefined;
    if (this.heldPeek !== undefined) this.flush(this.heldPeek);
  }

  /** Answered at once when a view has changes, otherwise held until one has. */
  private peek(reqId: string) {
    for (const v of this.views.values()) if (v.pending) return this.flush(reqId);
    this.heldPeek = reqId;
  }

  private flush(reqId: string) {
    // {"aid":"peek_message","req_id":…,"result":"ok","data":{"view":<patch>,…}}, as bytes: only the head is encoded
    // for this client; the patches are the shared encodings.
    const parts: Buffer[] = [];
    let head = `{"aid":"peek_message","req_id":${JSON.stringify(reqId)},"result":"ok","data":{`;
    for (const v of this.views.values()) {
      if (v.pending) {
        parts.push(Buffer.from(`${head}${JSON.stringify(v.id)}:`), toJson(v.pending));
        head = ',';
        v.pending = undefined;
        v.shared = undefined;
      }
    }
    if (parts.length === 0) parts.push(Buffer.from(head));
    parts.push(PEEK_END);
    this.heldPeek = undefined;
    if (!this.closed && this.socket.readyState === this.socket.OPEN) {
      // One frame, one write: a Buffer goes to the socket as it is (no per-client UTF-8 pass over the patch).
      this.socket.send(Buffer.concat(parts), { binary: false });
    }
  }

  private async startTask(msg: z.output<typeof startTask>) {
    const name = msg.task_name;
    const type = this.registry.tasks.get(name);
    if (!type) throw new WsError('UNKNOWN_TASK', `未知的任务：${name || '(空)'}`);
    if (!this.authenticated) throw new WsError('UNAUTHORIZED', '认证失败: 未授权访问');
    if (this.tasks.size >= MAX_TASKS) throw new WsError('TOO_MANY_TASKS', '运行中的任务过多');
    const taskId = randomUUID();
    const handle = await type.start(msg.params ?? {}, (data) => this.send({ aid: 'task_data', task_id: taskId, data }));
    this.tasks.set(taskId, handle);
    return { task_id: taskId };
  }

  private async intervene(msg: z.output<typeof interveneTask>) {
    const { task_id: taskId, intervention, params } = msg.params;
    const handle = this.tasks.get(taskId);
    if (!handle) throw new WsError('UNKNOWN_TASK_ID', `任务不存在：${taskId || '(空)'}`);
    if (intervention === 'stop') {
      handle.stop();
      this.tasks.delete(taskId);
      return { task_id: taskId, stopped: true };
    }
    return handle.intervene(intervention, params ?? {});
  }

  /** The view is gone: its futures go back to the budget. */
  private drop(view: View) {
    this.views.delete(view.id);
    if (view.budgeted) this.budget?.give(view.resources ?? []);
    view.budgeted = false;
  }

  dispose() {
    if (this.closed) return;
    this.closed = true;
    for (const v of [...this.views.values()]) {
      v.sub?.close();
      this.drop(v);
    }
    for (const t of this.tasks.values()) t.stop();
    this.tasks.clear();
  }
}
