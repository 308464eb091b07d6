import type { ViewSource, WsRegistry } from '../../src/platform/ws/registry';

/**
 * A small real source for protocol tests: a counter per subscription that the test advances,
 * pushing `{count: n}` patches.
 */
export function counterSource(isPublic = true) {
  const subs = new Set<(patch: Record<string, unknown>) => void>();
  const source: ViewSource = {
    public: isPublic,
    async subscribe(params, push) {
      if (params.fail) throw new Error('boom');
      subs.add(push);
      return { initial: { count: 0, params }, close: () => subs.delete(push) };
    },
  };
  return { source, tick: (n: number) => subs.forEach((p) => p({ count: n })), subscribers: () => subs.size };
}

export function echoTask(registry: WsRegistry) {
  registry.task('echo', {
    async start(params, push) {
      push({ started: params });
      return {
        intervene: async (intervention, p) => ({ intervention, params: p }),
        stop: () => undefined,
      };
    },
  });
}
