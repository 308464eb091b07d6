import Fastify from 'fastify';
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import type { DB } from '../platform/db/schema';
import type { Capability, RunContext } from './context';
import { triggerConditional } from './conditional/conditional';
import { CAPABILITIES, runCapabilities, tradingHooks } from './index';
import { notifyFills } from './notifications/notify';

/** What a capability declares besides its calls: built in list order, stopped in reverse (modules/index.ts). */
describe('the capabilities’ sources, jobs and hooks', () => {
  const log: string[] = [];
  const job = (name: string) => ({
    start: async () => void log.push(`start ${name}`),
    stop: async () => void log.push(`stop ${name}`),
  });
  const declared = (name: string, parts: { source?: boolean; jobs?: string[] }): Capability => ({
    ...(parts.source
      ? {
          sources: () => (log.push(`build ${name} source`), { sources: [], ...job(`${name} source`) }),
        }
      : {}),
    ...(parts.jobs ? { jobs: () => parts.jobs!.map((j) => (log.push(`build ${j}`), job(j))) } : {}),
  });

  it('builds each capability’s sources, then its jobs, in list order; starts them so; stops them in reverse', async () => {
    const app = Fastify();
    const ctx = { config: loadConfig({ LOG_LEVEL: 'silent' }) } as RunContext;
    const running = runCapabilities(app, ctx, [
      declared('a', { jobs: ['a1', 'a2'] }),
      {},
      declared('b', { source: true, jobs: ['b1'] }),
    ]);
    await running.start();
    await running.stop();
    await app.close();
    expect(log).toEqual([
      'build a1',
      'build a2',
      'build b source',
      'build b1',
      'start a1',
      'start a2',
      'start b source',
      'start b1',
      'stop b1',
      'stop b source',
      'stop a2',
      'stop a1',
    ]);
  });

  it('hands trading the one 条件单 trigger and every fillsBooked, in list order, in the booking’s transaction', async () => {
    const told: string[] = [];
    const trigger = async () => ({ outcome: 'waiting' }) as never;
    const hooks = tradingHooks([
      { trading: { fillsBooked: async () => void told.push('first') } },
      { trading: { trigger } },
      { trading: { fillsBooked: async () => void told.push('second') } },
    ]);
    expect(hooks.trigger).toBe(trigger);
    await hooks.fillsBooked!({} as Transaction<DB>, []);
    expect(told).toEqual(['first', 'second']);
    expect(() => tradingHooks([{}])).toThrow(/exactly one capability gives the 条件单 trigger \(0 do\)/);
    expect(() => tradingHooks([{ trading: { trigger } }, { trading: { trigger } }])).toThrow(/\(2 do\)/);
  });

  it('of this server: conditional’s triggerConditional; notifications’ notifyFills, the only fillsBooked', () => {
    expect(tradingHooks().trigger).toBe(triggerConditional);
    expect(CAPABILITIES.filter((c) => c.trading?.fillsBooked).map((c) => c.trading?.fillsBooked)).toEqual([
      notifyFills,
    ]);
  });
});
