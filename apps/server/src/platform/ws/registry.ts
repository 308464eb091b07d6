/**
 * The data sources behind `subscribe_view` and the tasks behind `start_task`. A source answers a
 * subscription with its initial data and then pushes patches; the connection merges patches
 * until the client peeks.
 */
export interface ViewSubscription {
  initial: unknown;
  close(): void;
}

/** A source's patches are immutable once pushed: one object may go to many connections. */
export interface ViewSource {
  /** Whether the view needs an authenticated caller. */
  public: boolean;
  /** `caller`: what the connection's token authenticated (the server's `authenticate` answer; undefined when anonymous). */
  subscribe(
    params: Record<string, unknown>,
    push: (patch: Record<string, unknown>) => void,
    caller?: unknown,
  ): Promise<ViewSubscription>;
  /** What a subscription would hold (e.g. option chains kept computed), for the per-connection cap. */
  resources?(params: Record<string, unknown>): string[];
}

export interface TaskHandle {
  intervene(intervention: string, params: Record<string, unknown>): Promise<unknown>;
  stop(): void;
}

export interface TaskType {
  start(params: Record<string, unknown>, push: (data: unknown) => void): Promise<TaskHandle>;
}

export class WsRegistry {
  readonly sources = new Map<string, ViewSource>();
  readonly tasks = new Map<string, TaskType>();
  source(name: string, source: ViewSource) {
    this.sources.set(name, source);
    return this;
  }
  task(name: string, task: TaskType) {
    this.tasks.set(name, task);
    return this;
  }
}

/** Error with a message meant for the client. */
export class WsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
