import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { DEFAULT_WS_LIMITS, MessageRate, WS_LIMIT_MESSAGES, type WsLimits } from './limits';
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
}

/** JSON of patch objects, cached per object: one update fans out to many connections. */
const jsonCache = new WeakMap<object, string>();
function toJson(value: Record<string, unknown>): string {
  let json = jsonCache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    jsonCache.set(value, json);
  }
  return json;
}

const MAX_TASKS = 16;

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

  constructor(
    private readonly socket: WebSocket,
    private readonly registry: WsRegistry,
    private readonly authenticated: boolean,
    private readonly log: { warn(o: object, m: string): void },
    private readonly limits: WsLimits = DEFAULT_WS_LIMITS,
  ) {
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
    let msg: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      msg = parsed as Record<string, unknown>;
    } catch {
      return this.fail(null, 'error', 'BAD_MESSAGE', '消息不是有效的 JSON 对象');
    }
    const aid = typeof msg.aid === 'string' ? msg.aid : '';
    const reqId = msg.req_id;
    if (aid !== 'peek_message' && (typeof reqId !== 'string' || !reqId)) {
      return this.fail(reqId ?? null, aid || 'error', 'MISSING_REQ_ID', '缺少 req_id');
    }
    try {
      switch (aid) {
        case 'subscribe_view':
          return this.reply(reqId, aid, await this.subscribe(msg));
        case 'unsubscribe_view':
          return this.reply(reqId, aid, this.unsubscribe(msg.view_id));
        case 'peek_message':
          return this.peek(reqId);
        case 'start_task':
          return this.reply(reqId, aid, await this.startTask(msg));
        case 'intervene_task':
          return this.reply(reqId, aid, await this.intervene(msg));
        default:
          throw new WsError('UNKNOWN_AID', `不支持的操作：${aid || '(空)'}`);
      }
    } catch (e) {
      if (e instanceof WsError) return this.fail(reqId, aid, e.code, e.message);
      this.log.warn({ err: e, aid }, 'ws request failed');
      return this.fail(reqId, aid, 'INTERNAL', '服务器内部错误');
    }
  }

  private async subscribe(msg: Record<string, unknown>) {
    const viewId = msg.view_id;
    if (typeof viewId !== 'string' || !viewId) throw new WsError('BAD_PARAMS', '缺少 view_id');
    if (this.views.has(viewId)) throw new WsError('DUPLICATE_VIEW', `视图 ${viewId} 已订阅`);
    if (this.views.size >= this.limits.maxViews)
      throw new WsError('TOO_MANY_VIEWS', WS_LIMIT_MESSAGES.tooManyViews(this.limits.maxViews));
    const viewName = typeof msg.view_name === 'string' ? msg.view_name : '';
    const sourceName = typeof msg.data_source === 'string' ? msg.data_source : viewName;
    const source = this.registry.sources.get(sourceName);
    if (!source) throw new WsError('UNKNOWN_VIEW', `未知的数据源：${sourceName || '(空)'}`);
    if (!source.public && !this.authenticated) throw new WsError('UNAUTHORIZED', '认证失败: 未授权访问');
    const { aid: _a, req_id: _r, view_id: _v, view_name: _n, data_source: _d, params, ...rest } = msg;
    const merged = {
      ...rest,
      ...(typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {}),
    };
    const resources = source.resources?.(merged) ?? [];
    if (resources.length > 0) {
      const held = new Set([...this.views.values()].flatMap((v) => v.resources ?? []));
      for (const r of resources) held.add(r);
      if (held.size > this.limits.maxFutures)
        throw new WsError('TOO_MANY_FUTURES', WS_LIMIT_MESSAGES.tooManyFutures(this.limits.maxFutures));
    }
    const view: View = { id: viewId, name: viewName, resources };
    this.views.set(viewId, view); // reserve the id while the source computes its initial data
    try {
      view.sub = await source.subscribe(merged, (patch) => this.push(view, patch));
    } catch (e) {
      this.views.delete(viewId);
      throw e;
    }
    if (this.closed || this.views.get(viewId) !== view) {
      view.sub.close();
      throw new WsError('UNSUBSCRIBED', '视图已取消订阅');
    }
    return view.sub.initial;
  }

  private unsubscribe(viewId: unknown) {
    if (typeof viewId !== 'string') throw new WsError('BAD_PARAMS', '缺少 view_id');
    const view = this.views.get(viewId);
    if (!view) throw new WsError('UNKNOWN_VIEW_ID', `视图 ${viewId} 未订阅`);
    view.sub?.close();
    this.views.delete(viewId);
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
  private peek(reqId: unknown) {
    const id = typeof reqId === 'string' ? reqId : '';
    if ([...this.views.values()].some((v) => v.pending)) return this.flush(id);
    this.heldPeek = id;
  }

  private flush(reqId: string) {
    const parts: string[] = [];
    for (const v of this.views.values()) {
      if (v.pending) {
        parts.push(`${JSON.stringify(v.id)}:${toJson(v.pending)}`);
        v.pending = undefined;
        v.shared = undefined;
      }
    }
    this.heldPeek = undefined;
    // Built by hand so that a patch shared by many subscribers is serialised once per update.
    if (!this.closed && this.socket.readyState === this.socket.OPEN) {
      this.socket.send(
        `{"aid":"peek_message","req_id":${JSON.stringify(reqId)},"result":"ok","data":{${parts.join(',')}}}`,
      );
    }
  }

  private async startTask(msg: Record<string, unknown>) {
    const name = typeof msg.task_name === 'string' ? msg.task_name : '';
    const type = this.registry.tasks.get(name);
    if (!type) throw new WsError('UNKNOWN_TASK', `未知的任务：${name || '(空)'}`);
    if (!this.authenticated) throw new WsError('UNAUTHORIZED', '认证失败: 未授权访问');
    if (this.tasks.size >= MAX_TASKS) throw new WsError('TOO_MANY_TASKS', '运行中的任务过多');
    const taskId = randomUUID();
    const params = typeof msg.params === 'object' && msg.params !== null ? (msg.params as Record<string, unknown>) : {};
    const handle = await type.start(params, (data) => this.send({ aid: 'task_data', task_id: taskId, data }));
    this.tasks.set(taskId, handle);
    return { task_id: taskId };
  }

  private async intervene(msg: Record<string, unknown>) {
    const p = (typeof msg.params === 'object' && msg.params !== null ? msg.params : {}) as Record<string, unknown>;
    const taskId = typeof p.task_id === 'string' ? p.task_id : '';
    const handle = this.tasks.get(taskId);
    if (!handle) throw new WsError('UNKNOWN_TASK_ID', `任务不存在：${taskId || '(空)'}`);
    const intervention = typeof p.intervention === 'string' ? p.intervention : '';
    if (intervention === 'stop') {
      handle.stop();
      this.tasks.delete(taskId);
      return { task_id: taskId, stopped: true };
    }
    const params = typeof p.params === 'object' && p.params !== null ? (p.params as Record<string, unknown>) : {};
    return handle.intervene(intervention, params);
  }

  dispose() {
    if (this.closed) return;
    this.closed = true;
    for (const v of this.views.values()) v.sub?.close();
    this.views.clear();
    for (const t of this.tasks.values()) t.stop();
    this.tasks.clear();
  }
}
